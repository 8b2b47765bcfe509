/**
 * The identity rules that must hold under real concurrency: requests spread over two instances
 * of one store (two servers over one Postgres, or two connections to one SQLite file).
 */
import { expect } from "@effect/vitest"
import { type Context, Effect } from "effect"
import { Invitations, Precondition, SsoGroup, SsoGroups, Teams, UserRoles } from "@costline/core"
import { addMember, createTeam, grant, system } from "./AccessFixtures.js"
import { type ContractServices, drainExport, freshOrganization, ifMatch } from "./Fixtures.js"

type Instance = Context.Context<ContractServices>

const CONTENDERS = 8

/** Runs `attempt(i)` on alternating instances, all at once; returns each outcome's tag. */
const race = <A, E extends { readonly _tag: string }>(
  instances: readonly [Instance, Instance],
  attempt: (index: number) => Effect.Effect<A, E, ContractServices>
) =>
  Effect.forEach(
    Array.from({ length: CONTENDERS }, (_, index) => index),
    (index) =>
      attempt(index).pipe(
        Effect.match({ onFailure: (error) => error._tag, onSuccess: () => "ok" }),
        Effect.provide(instances[index % 2]!)
      ),
    { concurrency: "unbounded" }
  )

const count = (outcomes: ReadonlyArray<string>) =>
  outcomes.reduce<Record<string, number>>((counts, outcome) => ({ ...counts, [outcome]: (counts[outcome] ?? 0) + 1 }), {})

/** Of concurrent updates made with one If-Match, exactly one applies; the others are 412s. */
export const expectOneTeamUpdatePerETag = (first: Instance, second: Instance) =>
  Effect.gen(function*() {
    const organization = yield* freshOrganization
    const team = yield* createTeam(organization.id, "Contested")
    const condition = ifMatch(Teams.teamEtag(team))
    const outcomes = yield* race([first, second], (index) =>
      Effect.flatMap(Teams.Teams, (teams) => teams.update(system, organization.id, team.id, { name: `winner-${index}` }, condition)))
    expect(count(outcomes)).toEqual({ ok: 1, PreconditionFailed: CONTENDERS - 1 })
    const { records } = yield* drainExport(organization.id, { filters: { operation_in: ["update"] } })
    expect(records).toHaveLength(1)
    expect((yield* (yield* Teams.Teams).get(organization.id, team.id)).name).toBe(records[0]!.new_values?.["name"])
  }).pipe(Effect.provide(first))

/** Without If-Match every concurrent update applies, one after the other, each audited. */
export const expectEveryUnconditionalTeamUpdate = (first: Instance, second: Instance) =>
  Effect.gen(function*() {
    const organization = yield* freshOrganization
    const team = yield* createTeam(organization.id, "Busy")
    const outcomes = yield* race([first, second], (index) =>
      Effect.flatMap(Teams.Teams, (teams) => teams.update(system, organization.id, team.id, { name: `name-${index}` }, Precondition.none)))
    expect(count(outcomes)).toEqual({ ok: CONTENDERS })
    const { records } = yield* drainExport(organization.id, { filters: { operation_in: ["update"] } })
    expect(records).toHaveLength(CONTENDERS)
    // Each update saw the one before it, so old → new names form one unbroken chain from the
    // original name to the stored one. (The log's order need not be the commit order: on
    // Postgres it follows transaction ids.)
    const nextName = new Map(records.map((record) => [record.old_values?.["name"], record.new_values?.["name"]]))
    const chain = ["Busy"]
    while (nextName.has(chain.at(-1))) chain.push(nextName.get(chain.at(-1)) as string)
    expect(chain).toHaveLength(CONTENDERS + 1)
    expect((yield* (yield* Teams.Teams).get(organization.id, team.id)).name).toBe(chain.at(-1))
  }).pipe(Effect.provide(first))

/** The same direct grant, or the same SSO group name, requested at once: one wins. */
export const expectOneOfConcurrentDuplicates = (first: Instance, second: Instance) =>
  Effect.gen(function*() {
    const organization = yield* freshOrganization
    yield* addMember(organization.id, "racer@example.com")
    const grants = yield* race([first, second], () =>
      Effect.flatMap(UserRoles.UserRoles, (roles) => roles.grant(system, organization.id, "racer@example.com", grant("editor", "organization"))))
    expect(count(grants)).toEqual({ ok: 1, AlreadyExists: CONTENDERS - 1 })
    const mappings = yield* race([first, second], (index) =>
      Effect.flatMap(SsoGroups.SsoGroups, (groups) =>
        groups.create(system, organization.id, new SsoGroup.CreateSsoGroup({ name: "okta-racers", roles: [grant("viewer", "bi_site", `site-${index}`)] }))))
    expect(count(mappings)).toEqual({ ok: 1, AlreadyExists: CONTENDERS - 1 })
    const { records } = yield* drainExport(organization.id, { filters: { resource_in: ["user_roles"], operation_in: ["create"] } })
    // The member's first role, the winning grant, the winning mapping and its one role.
    expect(records.map((record) => record.table_name)).toEqual(["role_assignments", "role_assignments", "sso_groups", "role_assignments"])
  }).pipe(Effect.provide(first))

/** One invitation accepted at once from both instances: exactly one acceptance, the others NotFound. */
export const expectOneAcceptanceOfAnInvitation = (first: Instance, second: Instance) =>
  Effect.gen(function*() {
    const organization = yield* freshOrganization
    const { invitation, token } = yield* Effect.flatMap(Invitations.Invitations, (invitations) =>
      invitations.create(system, organization.id, { email: "racer@example.com", role: "editor" }))
    const outcomes = yield* race([first, second], () =>
      Effect.flatMap(Invitations.Invitations, (invitations) => invitations.accept(organization.id, { token, email: "racer@example.com" })))
    expect(count(outcomes)).toEqual({ ok: 1, NotFound: CONTENDERS - 1 })
    const { records } = yield* drainExport(organization.id)
    expect(records.map((record) => `${record.event_type ?? record.resource}/${record.operation}`)).toEqual([
      "invitation/create",
      "invitation/revoke",
      "user_roles/create",
      "session/login"
    ])
    expect(records[1]!.record_id).toBe(invitation.id)
  }).pipe(Effect.provide(first))
