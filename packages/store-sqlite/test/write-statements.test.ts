/// <reference path="../src/better-sqlite3.d.ts" />
/**
 * What an audited, conditional write sends to SQLite: one transaction of the read, the
 * compare-and-set and the audit record, nothing else. The repositories' writes join the caller's
 * transaction; a savepoint around each (two more statements apiece) was most of a PATCH's
 * statements (issue 19). A write whose typed failure a caller may recover from still runs as a
 * savepoint (the contract's "a write refused inside a transaction can be recovered from").
 */
import { Actor, Core, Insights, Precondition, Teams } from "@costline/core"
import { freshOrganization, idleWarehouse } from "@costline/store-contract"
import { SqliteStore } from "@costline/store-sqlite"
import { afterAll, afterEach, expect, it } from "@effect/vitest"
import Sqlite from "better-sqlite3"
import { Effect, Layer } from "effect"

const store = SqliteStore.layer({ filename: ":memory:" })
const system = Actor.Actor.system()

/** A fresh organization with one insight in it. */
const withInsight = Effect.gen(function*() {
  const organization = yield* freshOrganization
  const result = yield* (yield* Insights.Insights).upsert(system, organization.id, idleWarehouse("WH_IDLE"))
  return { organizationId: organization.id, insight: result.insight }
})

/** Every statement better-sqlite3 runs while `log` is set: its first word. */
let log: Array<string> | undefined
const probe = new Sqlite(":memory:")
const statementProto = Object.getPrototypeOf(probe.prepare("SELECT 1")) as Record<string, (...args: Array<unknown>) => unknown>
probe.close()
const originals = new Map<string, (...args: Array<unknown>) => unknown>()
for (const method of ["run", "get", "all", "iterate"]) {
  const original = statementProto[method]!
  originals.set(method, original)
  statementProto[method] = function(this: { readonly source: string }, ...args: Array<unknown>) {
    log?.push(this.source.trim().split(/\s+/)[0]!.toUpperCase())
    return original.apply(this, args)
  }
}
afterEach(() => {
  log = undefined
})
// The native statement class outlives this file in its worker: put it back.
afterAll(() => {
  for (const [method, original] of originals) statementProto[method] = original
})

const statementsOf = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.gen(function*() {
    log = []
    yield* effect
    const statements = log
    log = undefined
    return statements
  })

it.effect("an insight update is BEGIN, its read, the compare-and-set, the audit record and COMMIT: no savepoint", () =>
  Effect.gen(function*() {
    const insights = yield* Insights.Insights
    const { insight, organizationId } = yield* withInsight
    const statements = yield* statementsOf(
      insights.update(system, organizationId, insight.id, { status: "in_progress" }, Precondition.any)
    )
    expect(statements).toEqual(["BEGIN", "SELECT", "UPDATE", "INSERT", "COMMIT"])
  }).pipe(Effect.provide(Core.layer.pipe(Layer.provideMerge(Layer.fresh(store))))))

it.effect("so is a team update (another aggregate through the same conditional, audited write)", () =>
  Effect.gen(function*() {
    const teams = yield* Teams.Teams
    const { organizationId } = yield* withInsight
    const team = yield* teams.create(system, organizationId, { name: "Platform", is_all_users: false, default_member_role: "viewer" })
    const statements = yield* statementsOf(teams.update(system, organizationId, team.id, { name: "Data" }, Precondition.none))
    expect(statements).toEqual(["BEGIN", "SELECT", "UPDATE", "INSERT", "COMMIT"])
  }).pipe(Effect.provide(Core.layer.pipe(Layer.provideMerge(Layer.fresh(store))))))

it.effect("an upsert's write and its audit record share the caller's transaction too", () =>
  Effect.gen(function*() {
    const insights = yield* Insights.Insights
    const { organizationId } = yield* withInsight
    const statements = yield* statementsOf(insights.upsert(system, organizationId, idleWarehouse("WH_NEW")))
    // The organization, then the key's row read, the insert and its record in one transaction.
    expect(statements).toEqual(["SELECT", "BEGIN", "SELECT", "INSERT", "INSERT", "COMMIT"])
  }).pipe(Effect.provide(Core.layer.pipe(Layer.provideMerge(Layer.fresh(store))))))
