/** Helpers of the insights contract: sample insights, instances of the store, concurrent calls. */
import { type Context, Effect, Layer } from "effect"
import { Core, Insight, Insights } from "@costline/core"
import type { Identity, Ids, InsightsRepo } from "@costline/core"
import { drainExport, freshOrganization, userActor } from "./Fixtures.js"

/** Opens another store instance over the same database, as a second server process would. */
export type AnotherInstance = () => Layer.Layer<Core.Repositories, unknown>

/** What the tests that run on several instances need of each. */
export type Services = Context.Context<Insights.Insights | InsightsRepo.InsightsRepo>

export const importer = userActor("importer@example.com")
export const ann = userActor("ann@example.com")

export const idleWarehouse = (resourceId = "WH_IDLE", change: Partial<ConstructorParameters<typeof Insight.InsightUpsert>[0]> = {}) =>
  new Insight.InsightUpsert({
    insight_type: "warehouse_idle",
    resource_type: "warehouse",
    resource_id: resourceId,
    title: `Warehouse ${resourceId} is idle`,
    description: "It ran for hours without queries.",
    severity: "medium",
    potential_savings: 120,
    details: { idle_hours: 14, warehouse_size: "LARGE" },
    ...change
  })

export const apiKey = (organizationId: Ids.OrganizationId): Identity.Principal => ({
  _tag: "ApiKey",
  organizationId,
  keyId: "00000000-0000-4000-8000-000000000000" as Ids.ApiKeyId,
  name: "ci",
  access: "admin",
  scopes: ["*"]
})

/** A fresh organization with one insight in it. */
export const withInsight = Effect.gen(function*() {
  const organization = yield* freshOrganization
  const result = yield* (yield* Insights.Insights).upsert(importer, organization.id, idleWarehouse())
  return { organizationId: organization.id, insight: result.insight }
})

/** This store's services, and those of a second instance over the same database when there is one. */
export const instances = (another: AnotherInstance | undefined) =>
  Effect.gen(function*() {
    const here: Services = yield* Effect.context<Insights.Insights | InsightsRepo.InsightsRepo>()
    if (another === undefined) return [here]
    const there: Services = yield* Layer.build(Core.layer.pipe(Layer.provideMerge(another())))
    return [here, there]
  })

/** Runs `count` copies of `task` at once, spread over the instances. */
export const concurrently = <A, E>(
  services: ReadonlyArray<Services>,
  count: number,
  task: (index: number) => Effect.Effect<A, E, Insights.Insights | InsightsRepo.InsightsRepo>
) =>
  Effect.all(
    Array.from({ length: count }, (_, index) => Effect.either(Effect.provide(task(index), services[index % services.length]!))),
    { concurrency: "unbounded" }
  )

export const insightRecords = (organizationId: Ids.OrganizationId) =>
  Effect.map(drainExport(organizationId, { filters: { resource_in: ["insights"] } }), ({ records }) => records)
