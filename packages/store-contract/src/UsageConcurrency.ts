/**
 * Usage rules under real concurrency: two store instances over one database (two servers, or the
 * CLI beside a server), each with its own connections, changing the same rows at the same time.
 */
import { describe, expect, it } from "@effect/vitest"
import { type Context, Effect, Either, Layer, Schema } from "effect"
import { isDeepStrictEqual } from "node:util"
import { Core, Precondition, Usage, UsageGroups, UsageRepo } from "@costline/core"
import { type ContractServices, drainExport, freshOrganization, ifMatch, userActor } from "./Fixtures.js"
import { createGroup, createSet, equals, scanAll, usage } from "./UsageFixtures.js"

type Instance = Context.Context<Layer.Layer.Success<typeof Core.layer> | Core.Repositories>

const alice = userActor("alice@example.com")
const patchInput = Schema.decodeUnknownSync(Usage.PatchUsageGroup)

/**
 * Registers the suite. `makeInstance` is called twice and must open the same database each time
 * (a file or a server, never `:memory:`).
 */
export const usageConcurrencyContract = (name: string, makeInstance: () => Layer.Layer<Core.Repositories, unknown>) => {
  const open = Layer.build(Core.layer.pipe(Layer.provideMerge(makeInstance())))
  /** Runs `test` with two instances over one database; alternate between them with `on(i)`. */
  const withTwoInstances = (test: (on: (i: number) => Instance) => Effect.Effect<void, unknown, ContractServices>) =>
    Effect.gen(function*() {
      const instances = [yield* open, yield* open] as const
      yield* test((i) => instances[i % 2]!).pipe(Effect.provide(instances[0]))
    }).pipe(Effect.scoped)

  describe(`usage under concurrency: ${name}`, () => {
    it.live("of sets created at once with one name on two instances, exactly one is created", () =>
      withTwoInstances((on) =>
        Effect.gen(function*() {
          const organization = yield* freshOrganization
          const outcomes = yield* Effect.all(
            Array.from({ length: 6 }, (_, i) => Effect.either(Effect.provide(createSet(organization.id, i % 2 ? "ETL" : "etl"), on(i)))),
            { concurrency: "unbounded" }
          )
          expect(outcomes.filter(Either.isRight)).toHaveLength(1)
          expect(outcomes.filter(Either.isLeft).map((o) => o.left._tag)).toEqual(Array(5).fill("AlreadyExists"))
        })
      ))

    it.live("patches of different fields at once on two instances all land, each audited against the one before", () =>
      withTwoInstances((on) =>
        Effect.gen(function*() {
          const organization = yield* freshOrganization
          const set = yield* createSet(organization.id)
          const group = yield* createGroup(organization.id, set.id, { name: "ETL", budget: 1, order: 1 })
          const patches = [
            { name: "Renamed" },
            { budget: 99 },
            { order: 7 },
            { filter_expression: equals("warehouse_name", "BI") }
          ]
          yield* Effect.all(
            patches.map((patch, i) =>
              Effect.flatMap(UsageGroups.UsageGroups, (groups) =>
                groups.updateGroup(alice, organization.id, set.id, group.id, patchInput(patch), Precondition.none)).pipe(
                  Effect.provide(on(i))
                )
            ),
            { concurrency: "unbounded" }
          )
          const [stored] = yield* (yield* UsageGroups.UsageGroups).allGroups(organization.id, set.id)
          expect(stored).toMatchObject({ name: "Renamed", budget: 99, order: 7 })
          expect(stored!.filter_expression.filters[0]).toMatchObject({ value: "BI" })

          // Each update was made on the state the one before it left (no change was lost): from the
          // created values, every update leads to the next, in some order, ending at the stored state.
          const { records } = yield* drainExport(organization.id, { filters: { table_name_in: ["usage_groups"] } })
          const pending = records.filter((record) => record.operation === "update")
          expect(pending).toHaveLength(patches.length)
          let state = records.find((record) => record.operation === "create")!.new_values
          while (pending.length > 0) {
            const next = pending.findIndex((update) => isDeepStrictEqual(update.old_values, state))
            expect(next).toBeGreaterThanOrEqual(0)
            state = pending.splice(next, 1)[0]!.new_values
          }
          expect(state).toMatchObject({ name: "Renamed", budget: 99, order: 7 })
        })
      ))

    it.live("of updates sent at once with one ETag on two instances, exactly one succeeds", () =>
      withTwoInstances((on) =>
        Effect.gen(function*() {
          const organization = yield* freshOrganization
          const set = yield* createSet(organization.id)
          const group = yield* createGroup(organization.id, set.id, { name: "ETL" })
          const outcomes = yield* Effect.all(
            Array.from({ length: 6 }, (_, i) =>
              Effect.flatMap(UsageGroups.UsageGroups, (groups) =>
                groups.updateGroup(alice, organization.id, set.id, group.id, patchInput({ name: `n${i}` }), ifMatch(group.etag))).pipe(
                  Effect.either,
                  Effect.provide(on(i))
                )),
            { concurrency: "unbounded" }
          )
          expect(outcomes.filter(Either.isRight)).toHaveLength(1)
          expect(outcomes.filter(Either.isLeft).map((o) => o.left._tag)).toEqual(Array(5).fill("PreconditionFailed"))
        })
      ))

    it.live("a scan sees the store as it was when it began: rows another instance commits meanwhile are not in it", () =>
      withTwoInstances((on) =>
        Effect.gen(function*() {
          const organization = yield* freshOrganization
          const before = Array.from({ length: 12_000 }, (_, i) => usage("2024-05-10T00:00:00Z", 1, { query_tag: `b${i}` }))
          yield* Effect.flatMap(UsageRepo.UsageRecordsRepo, (repo) => repo.insert(organization.id, before))
          const late = [usage("2024-05-01T00:00:00Z", 1), usage("2024-05-31T00:00:00Z", 1)]
          let inserted = false
          let seen = 0
          yield* Effect.flatMap(UsageRepo.UsageRecordsRepo, (repo) =>
            repo.scan(
              { organizationId: organization.id, from: new Date("2024-05-01T00:00:00Z"), to: new Date("2024-06-01T00:00:00Z") },
              (batch) =>
                Effect.gen(function*() {
                  seen += batch.length
                  if (inserted) return
                  inserted = true
                  yield* Effect.flatMap(UsageRepo.UsageRecordsRepo, (other) => other.insert(organization.id, late)).pipe(
                    Effect.provide(on(1))
                  )
                })
            ))
          expect(inserted).toBe(true)
          expect(seen).toBe(before.length)
          expect((yield* scanAll(organization.id, "2024-05")).records).toHaveLength(before.length + late.length)
        })
      ))
  })
}
