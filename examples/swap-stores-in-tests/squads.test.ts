/**
 * An integrator's test-suite, run once per store: SQLite in memory (fast, for every change) and
 * Postgres (what production runs). The tests are written once; each store is one layer.
 *
 * `@costline/store-contract` brings the helpers: `freshOrganization` keeps tests that share a
 * database apart, `drainExport` reads the audit log as a poller would.
 */
import { Actor, Core, Users } from "@costline/core"
import type { Ids } from "@costline/core"
import { drainExport, freshOrganization, memberActor } from "@costline/store-contract"
import { PgStore } from "@costline/store-pg"
import { SqliteStore } from "@costline/store-sqlite"
import { expect, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { useFreshDatabase } from "../../test-support/postgres/database.js"
import { createSquad } from "./squads.js"

const postgresUrl = useFreshDatabase()

const stores: Record<string, () => Layer.Layer<Core.Repositories, unknown>> = {
  "SQLite :memory:": () => SqliteStore.layer({ filename: ":memory:" }),
  Postgres: () => PgStore.layer({ url: postgresUrl })
}

/**
 * The signed-in admin making the changes, added by the operator first: core bounds what an actor
 * may grant by the roles its user holds in the store.
 */
const signedInLead = (organizationId: Ids.OrganizationId) =>
  Effect.gen(function*() {
    const user = yield* (yield* Users.Users).add(Actor.Actor.system(), organizationId, { email: "lead@example.com", role: "admin" })
    return memberActor(organizationId, user.email, ["admin"], user.id)
  })

const addUsers = (lead: Actor.Actor, organizationId: Ids.OrganizationId, emails: ReadonlyArray<string>) =>
  Effect.flatMap(Users.Users, (users) =>
    Effect.forEach(emails, (email) => users.add(lead, organizationId, { email, role: "viewer" }), { discard: true }))

for (const [name, store] of Object.entries(stores)) {
  // One store per suite, built before its tests and closed after them.
  layer(Core.layer.pipe(Layer.provideMerge(store())), { timeout: "60 seconds" })(`squads on ${name}`, (it) => {
    it.effect("creates the team and its members, each change audited", () =>
      Effect.gen(function*() {
        const organization = yield* freshOrganization
        const lead = yield* signedInLead(organization.id)
        yield* addUsers(lead, organization.id, ["ana@example.com", "ben@example.com"])
        const team = yield* createSquad(lead, organization.id, {
          name: "Payments",
          members: ["ana@example.com", "ben@example.com"]
        })

        const { records } = yield* drainExport(organization.id, { filters: { resource_in: ["teams"] } })
        expect(records.map((record) => [record.table_name, record.operation, record.changed_by])).toEqual([
          ["teams", "create", "lead@example.com"],
          ["team_members", "create", "lead@example.com"],
          ["team_members", "create", "lead@example.com"]
        ])
        expect(records[0]?.record_id).toBe(team.id)
      }))

    it.effect("leaves nothing behind when one member cannot be added", () =>
      Effect.gen(function*() {
        const organization = yield* freshOrganization
        const lead = yield* signedInLead(organization.id)
        yield* addUsers(lead, organization.id, ["cy@example.com"])
        const failed = yield* Effect.flip(
          createSquad(lead, organization.id, { name: "Search", members: ["cy@example.com", "nobody@example.com"] })
        )
        expect(failed._tag).toBe("ValidationFailed")

        // Not even the team: it was rolled back, and its audit record with it.
        const { records } = yield* drainExport(organization.id, { filters: { resource_in: ["teams"] } })
        expect(records).toEqual([])
        const retry = yield* createSquad(lead, organization.id, { name: "Search", members: ["cy@example.com"] })
        expect(retry.name).toBe("Search")
      }))
  })
}
