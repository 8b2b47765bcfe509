/**
 * Ticket links and warehouse accounts under real concurrency: two store instances over one
 * database (two servers, or the CLI beside a server), each with its own connections.
 */
import { describe, expect, it } from "@effect/vitest"
import { type Context, Effect, Layer, Schema } from "effect"
import { Actor, Core, DwAccount, DwAccounts, TicketLink, TicketLinks } from "@costline/core"
import { drainExport, freshOrganization, ifMatch, memberActor, userActor } from "./Fixtures.js"
import { contractSecrets, type SecretsContractServices } from "./SecretsFixtures.js"

type Instance = Context.Context<SecretsContractServices>

const alice = userActor("alice@example.com")

/** Each attempt's outcome: "done" or the tag of its failure (a defect fails the test). */
const outcome = <A, E extends { readonly _tag: string }, R>(attempt: Effect.Effect<A, E, R>) =>
  Effect.match(attempt, { onSuccess: () => "done", onFailure: (error) => error._tag })

/**
 * Registers the suite. `makeInstance` is called twice and must open the same database each time
 * (a file or a server, never `:memory:`); both instances share one master key, as they must.
 */
export const credentialsConcurrencyContract = (name: string, makeInstance: () => Layer.Layer<Core.Repositories, unknown>) => {
  const open = Layer.build(
    Core.layerWithSecrets.pipe(Layer.provideMerge(makeInstance()), Layer.provideMerge(contractSecrets))
  )
  /** Runs `test` on the first of two instances over one database. */
  const withTwoInstances = (
    test: (instances: ReadonlyArray<Instance>) => Effect.Effect<void, unknown, SecretsContractServices>
  ) =>
    Effect.gen(function*() {
      const instances = [yield* open, yield* open]
      yield* test(instances).pipe(Effect.provide(instances[0]!))
    }).pipe(Effect.scoped)

  /** `attempts` copies of `attempt`, alternating between the instances, all at once. */
  const atOnce = <A, E extends { readonly _tag: string }>(
    instances: ReadonlyArray<Instance>,
    attempts: number,
    attempt: Effect.Effect<A, E, SecretsContractServices>
  ) =>
    Effect.all(
      Array.from({ length: attempts }, (_, i) => outcome(Effect.provide(attempt, instances[i % instances.length]!))),
      { concurrency: "unbounded" }
    )

  describe(`ticket links and warehouse accounts under concurrency: ${name}`, () => {
    it.live("of one link requested at once on two instances, exactly one is created and audited", () =>
      withTwoInstances((instances) =>
        Effect.gen(function*() {
        const organization = yield* freshOrganization
        const account = yield* (yield* DwAccounts.DwAccounts).create(Actor.Actor.system(), organization.id, new DwAccount.CreateDwAccount({ name: "Prod" }))
        const link = Schema.decodeSync(TicketLink.TicketLinkCreate)({
          item_type: "dw_account",
          item_id: account.id,
          provider: "jira",
          ticket_id: "OPS-1",
          ticket_url: "https://tracker.example/browse/OPS-1"
        })
        const create = Effect.flatMap(TicketLinks.TicketLinks, (links) => links.create(memberActor(organization.id, "alice@example.com", ["editor"]), organization.id, link))
        const outcomes = yield* atOnce(instances, 6, create)
        expect(outcomes.sort()).toEqual([...Array<string>(5).fill("AlreadyExists"), "done"])
        const { records } = yield* drainExport(organization.id, { filters: { resource_in: ["ticket_links"] } })
        expect(records).toHaveLength(1)
      })))

    it.live("of patches sent at once with the same If-Match on two instances, exactly one lands", () =>
      withTwoInstances((instances) =>
        Effect.gen(function*() {
        const accounts = yield* DwAccounts.DwAccounts
        const organization = yield* freshOrganization
        const account = yield* accounts.create(Actor.Actor.system(), organization.id, new DwAccount.CreateDwAccount({ name: "Prod" }))
        const condition = ifMatch(account.etag)
        const rename = Effect.flatMap(DwAccounts.DwAccounts, (on) =>
          on.update(alice, organization.id, account.id, new DwAccount.DwAccountPatch({ name: "Renamed" }), condition))
        const outcomes = yield* atOnce(instances, 6, rename)
        expect(outcomes.sort()).toEqual([...Array<string>(5).fill("PreconditionFailed"), "done"])
        const { records } = yield* drainExport(organization.id, { filters: { resource_in: ["connections"] } })
        expect(records.map((record) => record.operation)).toEqual(["create", "update"])
      })))
  })
}
