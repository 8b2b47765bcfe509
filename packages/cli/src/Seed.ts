/**
 * Demo data: an organization, an admin member, an admin API key and demo insights. Re-running
 * keeps what exists and mints a new key (a key's token cannot be shown twice).
 */
import { Actor, ApiKeys, Insights, Organizations, Users } from "@costline/core"
import type { Ids } from "@costline/core"
import { Effect } from "effect"
import { demoInsights } from "./DemoInsights.js"

export const demoAdminEmail = (orgId: string) => `admin@${orgId}.example`

export const seedOrganization = (orgId: string, keyName = "demo") =>
  Effect.gen(function*() {
    const organizations = yield* Organizations.Organizations
    const users = yield* Users.Users
    const keys = yield* ApiKeys.ApiKeys
    const actor = Actor.Actor.system()
    const created = yield* organizations.create({ id: orgId, name: `${orgId} organization` }).pipe(
      Effect.as(true),
      Effect.catchTag("AlreadyExists", () => Effect.succeed(false))
    )
    const id = orgId as Ids.OrganizationId
    yield* users.add(actor, id, { email: demoAdminEmail(orgId), role: "admin" }).pipe(
      Effect.catchTag("AlreadyExists", () => Effect.void)
    )
    const insights = yield* Insights.Insights
    yield* Effect.forEach(demoInsights, (insight) => insights.upsert(actor, id, insight), { discard: true })
    const { token } = yield* keys.create(actor, id, { name: keyName, access: "admin", scopes: ["*"] })
    return { organizationId: id, created, token, insights: demoInsights.length }
  })
