/** Repository level: TeamsRepo and SsoGroupsRepo, directly, without core's services. */
import { describe, expect, type Vitest } from "@effect/vitest"
import { Effect, Either, Option } from "effect"
import { SsoGroup, SsoGroupsRepo, Team, TeamsRepo } from "@costline/core"
import type { Ids } from "@costline/core"
import { type ContractServices, freshOrganization } from "../Fixtures.js"
import { now, uuid } from "./Support.js"

export const accessRepositories = (it: Vitest.MethodsNonLive<ContractServices>) => {
  describe("TeamsRepo", () => {
    it.effect("insert, findById and a compare-and-set update round-trip, only within the team's organization", () =>
      Effect.gen(function*() {
        const [organization, other] = [yield* freshOrganization, yield* freshOrganization]
        const repo = yield* TeamsRepo.TeamsRepo
        const at = yield* now
        const team = new Team.Team({
          id: uuid<Ids.TeamId>(),
          organization_id: organization.id,
          name: "Data platform",
          is_all_users: false,
          default_member_role: "viewer",
          created_at: at,
          updated_at: at,
          etag: "etag-1"
        })
        yield* repo.insert(team)
        expect(yield* repo.findById(organization.id, team.id)).toEqual(Option.some(team))
        expect(yield* repo.findById(other.id, team.id)).toEqual(Option.none())
        expect(yield* repo.findById(organization.id, uuid<Ids.TeamId>())).toEqual(Option.none())

        const renamed = new Team.Team({ ...team, name: "Platform", etag: "etag-2" })
        expect(yield* repo.update(renamed, team)).toBe(true)
        expect(yield* repo.findById(organization.id, team.id)).toEqual(Option.some(renamed))
        // A writer that read the first version loses: the stored ETag moved.
        expect(yield* repo.update(new Team.Team({ ...team, name: "Stale", etag: "etag-3" }), team)).toBe(false)
        expect(yield* repo.findById(organization.id, team.id)).toEqual(Option.some(renamed))
        // An update naming the other organization changes nothing.
        const foreign = new Team.Team({ ...renamed, organization_id: other.id })
        expect(yield* repo.update(new Team.Team({ ...foreign, name: "Taken", etag: "etag-4" }), foreign)).toBe(false)
        expect(yield* repo.findById(organization.id, team.id)).toEqual(Option.some(renamed))
      }))

    it.effect("one all-users team per organization: a second is AlreadyExists", () =>
      Effect.gen(function*() {
        const organization = yield* freshOrganization
        const repo = yield* TeamsRepo.TeamsRepo
        const at = yield* now
        const allUsers = (id: Ids.TeamId) =>
          new Team.Team({
            id,
            organization_id: organization.id,
            name: "All users",
            is_all_users: true,
            default_member_role: "viewer",
            created_at: at,
            updated_at: at,
            etag: "etag"
          })
        const existing = yield* repo.findAllUsers(organization.id)
        if (Option.isNone(existing)) yield* repo.insert(allUsers(uuid<Ids.TeamId>()))
        const first = Option.getOrThrow(yield* repo.findAllUsers(organization.id))
        expect(first.is_all_users).toBe(true)
        const refused = yield* Effect.either(repo.insert(allUsers(uuid<Ids.TeamId>())))
        expect(Either.isLeft(refused) && refused.left._tag).toBe("AlreadyExists")
      }))
  })

  describe("SsoGroupsRepo", () => {
    it.effect("insert, find, list, count and update round-trip, only within the group's organization", () =>
      Effect.gen(function*() {
        const [organization, other] = [yield* freshOrganization, yield* freshOrganization]
        const repo = yield* SsoGroupsRepo.SsoGroupsRepo
        const at = yield* now
        const group = new SsoGroup.SsoGroup({ id: uuid<SsoGroup.SsoGroupId>(), organization_id: organization.id, name: "Okta-Admins", created_at: at, updated_at: at, etag: "etag-1" })
        yield* repo.insert(group)
        expect(yield* repo.findById(organization.id, group.id)).toEqual(Option.some(group))
        expect(yield* repo.findByName(organization.id, "Okta-Admins")).toEqual(Option.some(group))
        expect(yield* repo.list(organization.id, { limit: 10 })).toEqual([group])
        expect(yield* repo.count(organization.id)).toBe(1)
        expect(yield* repo.findById(other.id, group.id)).toEqual(Option.none())
        expect(yield* repo.findByName(other.id, "Okta-Admins")).toEqual(Option.none())
        expect(yield* repo.list(other.id, { limit: 10 })).toEqual([])
        expect(yield* repo.count(other.id)).toBe(0)

        const duplicate = yield* Effect.either(repo.insert(new SsoGroup.SsoGroup({ ...group, id: uuid<SsoGroup.SsoGroupId>() })))
        expect(Either.isLeft(duplicate) && duplicate.left._tag).toBe("AlreadyExists")
        const renamed = new SsoGroup.SsoGroup({ ...group, name: "Okta-Owners", etag: "etag-2" })
        expect(yield* repo.update(renamed, group)).toBe(true)
        expect(yield* repo.update(new SsoGroup.SsoGroup({ ...group, name: "Stale", etag: "etag-3" }), group)).toBe(false)
        expect(yield* repo.findById(organization.id, group.id)).toEqual(Option.some(renamed))
        expect(yield* repo.findByName(organization.id, "Okta-Admins")).toEqual(Option.none())
      }))
  })
}
