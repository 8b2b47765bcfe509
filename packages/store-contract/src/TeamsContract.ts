/** Contract: teams, and that a change and its audit record commit together or not at all. */
import { describe, expect, type Vitest } from "@effect/vitest"
import { DateTime, Effect, Exit, Option } from "effect"
import { Actor, Identity, IdentityRepo, Ids, Team, Teams, Transactor } from "@costline/core"
import { type ContractServices, drainExport, freshOrganization } from "./Fixtures.js"

const system = Actor.Actor.system()

const team = (name: string, isAllUsers = false) =>
  new Team.CreateTeam({ name, is_all_users: isAllUsers, default_member_role: "editor" })

export const teamsContract = (it: Vitest.MethodsNonLive<ContractServices>) => {
  describe("teams", () => {
    it.effect("reads back a created team and audits its creation", () =>
      Effect.gen(function*() {
        const teams = yield* Teams.Teams
        const organization = yield* freshOrganization
        const created = yield* teams.create(system, organization.id, team("  Platform "))
        expect(created.name).toBe("Platform")
        expect(yield* teams.get(organization.id, created.id)).toEqual(created)
        const { records } = yield* drainExport(organization.id)
        expect(records).toHaveLength(1)
        expect(records[0]).toMatchObject({
          resource: "teams",
          table_name: "teams",
          operation: "create",
          record_id: created.id,
          new_values: { name: "Platform", is_all_users: false, default_member_role: "editor" }
        })
      }))

    it.effect("one all-users team per organization: a second is AlreadyExists and audits nothing", () =>
      Effect.gen(function*() {
        const teams = yield* Teams.Teams
        const [organization, other] = [yield* freshOrganization, yield* freshOrganization]
        const allUsers = yield* teams.create(system, organization.id, team("Everyone", true))
        expect((yield* teams.get(organization.id, allUsers.id)).is_all_users).toBe(true)
        const second = yield* Effect.flip(teams.create(system, organization.id, team("Everyone else", true)))
        expect(second._tag).toBe("AlreadyExists")
        yield* teams.create(system, organization.id, team("Data"))
        yield* teams.create(system, organization.id, team("Finance"))
        yield* teams.create(system, other.id, team("Everyone", true))

        const { records } = yield* drainExport(organization.id)
        expect(records.map((record) => record.new_values?.["name"])).toEqual(["Everyone", "Data", "Finance"])
      }))

    it.effect("a team is NotFound in another organization", () =>
      Effect.gen(function*() {
        const teams = yield* Teams.Teams
        const [organization, other] = [yield* freshOrganization, yield* freshOrganization]
        const created = yield* teams.create(system, organization.id, team("Private"))
        expect((yield* Effect.flip(teams.get(other.id, created.id)))._tag).toBe("NotFound")
      }))
  })

  describe("transactions", () => {
    const aborts = [
      ["a failure", Effect.fail("abandoned")],
      ["a defect", Effect.die(new Error("bug"))]
    ] as const
    for (const [name, abort] of aborts) {
      it.effect(`${name} inside a transaction leaves neither the change nor its audit record`, () =>
        Effect.gen(function*() {
          const teams = yield* Teams.Teams
          const organization = yield* freshOrganization
          const created: Array<Ids.TeamId> = []
          const exit = yield* (yield* Transactor.Transactor).withTransaction(
            Effect.gen(function*() {
              created.push((yield* teams.create(system, organization.id, team("Doomed"))).id)
              return yield* abort
            })
          ).pipe(Effect.exit)
          expect(Exit.isFailure(exit)).toBe(true)
          expect(created).toHaveLength(1)
          expect((yield* Effect.flip(teams.get(organization.id, created[0]!)))._tag).toBe("NotFound")
          expect((yield* drainExport(organization.id)).records).toEqual([])
        }))
    }

    it.effect("a write refused inside a transaction can be recovered from, and the rest commits", () =>
      Effect.gen(function*() {
        const repo = yield* IdentityRepo.UsersRepo
        const organization = yield* freshOrganization
        const user = (email: string) =>
          Effect.map(Ids.newId<"UserId">(), (id) =>
            new Identity.User({ id, organization_id: organization.id, email, created_at: DateTime.unsafeMake(0) }))
        const kept = yield* user("once@example.com")
        yield* (yield* Transactor.Transactor).withTransaction(
          Effect.gen(function*() {
            yield* repo.insert(kept)
            // Straight at the repository: on Postgres a failed statement would poison the whole
            // transaction unless the repository isolates it.
            const duplicate = yield* Effect.flip(Effect.flatMap(user("ONCE@example.com"), repo.insert))
            expect(duplicate._tag).toBe("AlreadyExists")
            yield* (yield* Teams.Teams).create(system, organization.id, team("After the refusal"))
          })
        )
        expect(yield* repo.findById(organization.id, kept.id)).toEqual(Option.some(kept))
        const { records } = yield* drainExport(organization.id)
        expect(records.map((record) => record.resource)).toEqual(["teams"])
      }))
  })
}
