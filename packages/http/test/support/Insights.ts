/** Insights for the HTTP tests, upserted through core as a detector would, and a client for their routes. */
import { Actor, Insight, Insights } from "@costline/core"
import type { Ids } from "@costline/core"
import { Effect } from "effect"
import { call, type CallOptions } from "./TestServer.js"

export const upsertInsight = (
  organizationId: Ids.OrganizationId,
  resourceId: string,
  change: Partial<ConstructorParameters<typeof Insight.InsightUpsert>[0]> = {}
) =>
  Effect.flatMap(Insights.Insights, (insights) =>
    insights.upsert(
      Actor.Actor.system(),
      organizationId,
      new Insight.InsightUpsert({
        insight_type: "warehouse_idle",
        resource_type: "warehouse",
        resource_id: resourceId,
        title: `Warehouse ${resourceId} is idle`,
        description: "Suspend it after 60 seconds.",
        severity: "medium",
        potential_savings: 100,
        ...change
      })
    )).pipe(Effect.map((result) => result.insight))

export interface Client {
  readonly id: string
  readonly token: string
}

/** Calls an insights route as `client` for its tenant. */
export const insightsCall = (client: Client, method: string, path: string, options: Omit<CallOptions, "token" | "tenant"> = {}) =>
  call(method, `/v2/insights${path}`, { ...options, token: client.token, tenant: client.id })

/** A `PATCH` with `If-Match`, sent as a JSON merge patch. */
export const patchInsight = (client: Client, id: string, patch: unknown, ifMatch: string | undefined) =>
  insightsCall(client, "PATCH", `/${id}`, {
    body: JSON.stringify(patch),
    headers: { "content-type": "application/merge-patch+json", ...(ifMatch === undefined ? {} : { "if-match": ifMatch }) }
  })
