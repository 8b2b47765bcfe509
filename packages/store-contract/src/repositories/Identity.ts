/**
 * Repository level: OrganizationsRepo, UsersRepo, ApiKeysRepo and RoleAssignmentsRepo, directly,
 * without core's services.
 */
import { describe, expect, type Vitest } from "@effect/vitest"
import { DateTime, Effect, Either, Option } from "effect"
import { randomUUID } from "node:crypto"
import { Identity, IdentityRepo, RoleAssignment } from "@costline/core"
import type { Ids } from "@costline/core"
import { type ContractServices, freshOrganization } from "../Fixtures.js"
import { now, uuid } from "./Support.js"

export const identityRepositories = (it: Vitest.MethodsNonLive<ContractServices>) => {
  describe("OrganizationsRepo", () => {
    it.effect("insert, findById and updateSettings round-trip; an unknown id is None; a second insert is AlreadyExists", () =>
      Effect.gen(function*() {
        const repo = yield* IdentityRepo.OrganizationsRepo
        const organization = new Identity.Organization({
          id: `org-${randomUUID()}` as Ids.OrganizationId,
          name: "Repository level",
          settings: { idle_hours: 3 },
          created_at: yield* now
        })
        yield* repo.insert(organization)
        expect(yield* repo.findById(organization.id)).toEqual(Option.some(organization))
        expect((yield* repo.list).map((stored) => stored.id)).toContain(organization.id)
        yield* repo.updateSettings(organization.id, { idle_hours: 5, nested: { on: true } })
        expect(Option.getOrThrow(yield* repo.findById(organization.id)).settings).toEqual({ idle_hours: 5, nested: { on: true } })
        expect(yield* repo.findById(`org-${randomUUID()}` as Ids.OrganizationId)).toEqual(Option.none())
        const again = yield* Effect.either(repo.insert(organization))
        expect(Either.isLeft(again) && again.left._tag).toBe("AlreadyExists")
      }))
  })

  describe("UsersRepo", () => {
    it.effect("insert, find, list, count and delete round-trip, only within the user's organization", () =>
      Effect.gen(function*() {
        const [organization, other] = [yield* freshOrganization, yield* freshOrganization]
        const repo = yield* IdentityRepo.UsersRepo
        const user = new Identity.User({ id: uuid<Ids.UserId>(), organization_id: organization.id, email: "ann@example.com", created_at: yield* now })
        yield* repo.insert(user)
        expect(yield* repo.findById(organization.id, user.id)).toEqual(Option.some(user))
        expect(yield* repo.findByEmail(organization.id, "ANN@example.com")).toEqual(Option.some(user))
        expect(yield* repo.list(organization.id, { limit: 10 })).toEqual([user])
        expect(yield* repo.count(organization.id)).toBe(1)
        // The other tenant sees none of it.
        expect(yield* repo.findById(other.id, user.id)).toEqual(Option.none())
        expect(yield* repo.findByEmail(other.id, user.email)).toEqual(Option.none())
        expect(yield* repo.count(other.id)).toBe(0)
        expect(yield* repo.delete(other.id, user.id)).toBe(false)
        // The email is unique per organization, ignoring case; another organization may use it.
        const twin = new Identity.User({ ...user, id: uuid<Ids.UserId>(), email: "Ann@Example.com" })
        const refused = yield* Effect.either(repo.insert(twin))
        expect(Either.isLeft(refused) && refused.left._tag).toBe("AlreadyExists")
        yield* repo.insert(new Identity.User({ ...twin, organization_id: other.id }))
        expect(yield* repo.delete(organization.id, user.id)).toBe(true)
        expect(yield* repo.findById(organization.id, user.id)).toEqual(Option.none())
        expect(yield* repo.delete(organization.id, user.id)).toBe(false)
      }))
  })

  describe("ApiKeysRepo", () => {
    it.effect("insert, find by hash and id, list and revoke round-trip, only within the key's organization", () =>
      Effect.gen(function*() {
        const [organization, other] = [yield* freshOrganization, yield* freshOrganization]
        const repo = yield* IdentityRepo.ApiKeysRepo
        const at = yield* now
        const key = new Identity.ApiKey({
          id: uuid<Ids.ApiKeyId>(),
          organization_id: organization.id,
          name: "ci",
          access: "read_only",
          scopes: [],
          prefix: "clk_abcd",
          created_at: at,
          expires_at: null,
          revoked_at: null,
          last_used_at: null
        })
        const hash = `hash-${randomUUID()}`
        yield* repo.insert(key, hash)
        expect(yield* repo.findByHash(hash)).toEqual(Option.some(key))
        expect(yield* repo.findByHash(`hash-${randomUUID()}`)).toEqual(Option.none())
        expect(yield* repo.findById(organization.id, key.id)).toEqual(Option.some(key))
        expect(yield* repo.findById(other.id, key.id)).toEqual(Option.none())
        expect((yield* repo.list(organization.id)).map((listed) => listed.id)).toContain(key.id)
        expect((yield* repo.list(other.id)).map((listed) => listed.id)).not.toContain(key.id)
        expect(yield* repo.revoke(other.id, key.id, DateTime.toDate(at))).toBe(false)
        expect(yield* repo.revoke(organization.id, key.id, DateTime.toDate(at))).toBe(true)
        expect(yield* repo.revoke(organization.id, key.id, DateTime.toDate(at))).toBe(false)
        expect(Option.getOrThrow(yield* repo.findById(organization.id, key.id)).revoked_at).toEqual(at)
      }))
  })

  describe("RoleAssignmentsRepo", () => {
    it.effect("insert, find, list and delete round-trip, only within the assignment's organization", () =>
      Effect.gen(function*() {
        const [organization, other] = [yield* freshOrganization, yield* freshOrganization]
        const repo = yield* IdentityRepo.RoleAssignmentsRepo
        const at = yield* now
        const subject = randomUUID()
        const assignment = new RoleAssignment.RoleAssignment({
          id: uuid<Ids.RoleAssignmentId>(),
          organization_id: organization.id,
          subject_type: "user",
          subject_id: subject,
          role: "viewer",
          scope_type: "organization",
          scope_id: null,
          created_at: at,
          updated_at: at
        })
        yield* repo.insert(assignment)
        expect(yield* repo.findById(organization.id, assignment.id)).toEqual(Option.some(assignment))
        expect(yield* repo.findById(other.id, assignment.id)).toEqual(Option.none())
        expect(yield* repo.listForSubject(organization.id, "user", subject)).toEqual([assignment])
        expect(yield* repo.listForSubject(other.id, "user", subject)).toEqual([])
        expect(yield* repo.countForSubject(organization.id, "user", subject)).toBe(1)
        expect(yield* repo.deleteById(other.id, assignment.id)).toEqual(Option.none())
        expect(yield* repo.deleteById(organization.id, assignment.id)).toEqual(Option.some(assignment))
        expect(yield* repo.deleteById(organization.id, assignment.id)).toEqual(Option.none())
        expect(yield* repo.listForSubject(organization.id, "user", subject)).toEqual([])
      }))
  })
}
