/** Members of an organization, and their direct organization-wide role. */
import { Context, DateTime, Effect, Layer, Schema } from "effect"
import { AuditLog } from "../audit/AuditLog.js"
import type { AuditEntry } from "../audit/Domain.js"
import type { Actor } from "../shared/Actor.js"
import { AlreadyExists, type Forbidden, NotFound, orNotFound, type StoreUnavailable, ValidationFailed } from "../shared/Errors.js"
import { newId, type OrganizationId } from "../shared/Ids.js"
import { Transactor } from "../shared/Transactor.js"
import { TeamMemberAudit } from "../teams/Domain.js"
import { TeamMembersRepo } from "../teams/Repo.js"
import { Email, type Role, User, UserRemovalAudit } from "./Domain.js"
import { makeGrantGuard } from "./internal/GrantGuard.js"
import { Organizations } from "./Organizations.js"
import { RoleAssignmentsRepo, SessionsRepo, UsersRepo } from "./Repo.js"
import { RoleAssignment, RoleGrantAudit } from "./RoleAssignment.js"

const decodeEmail = Schema.decodeUnknownEither(Email)

/**
 * @since 0.1.0
 * @category utils
 */
export const normalizeEmail = (email: string) => email.trim().toLowerCase()

/**
 * @since 0.1.0
 * @category tags
 */
export class Users extends Context.Tag("@costline/core/Users")<
  Users,
  {
    /**
     * Adds a member with a direct role at organization scope (audited as `user_roles`). The
     * actor must be able to grant the role (GrantRule): Forbidden otherwise, audited as a failure.
     */
    readonly add: (
      actor: Actor,
      organizationId: OrganizationId,
      input: { readonly email: string; readonly role: Role }
    ) => Effect.Effect<User, ValidationFailed | AlreadyExists | NotFound | Forbidden | StoreUnavailable>
    readonly findByEmail: (
      organizationId: OrganizationId,
      email: string
    ) => Effect.Effect<User, NotFound | StoreUnavailable>
    /**
     * Removes a member: their sessions end, their direct roles and team memberships go (each
     * audited as its deletion), and the removal itself is audited as a `users` event.
     */
    readonly remove: (
      actor: Actor,
      organizationId: OrganizationId,
      email: string
    ) => Effect.Effect<void, NotFound | StoreUnavailable>
  }
>() {}

/**
 * @since 0.1.0
 * @category constructors
 */
export const make = Effect.gen(function*() {
  const users = yield* UsersRepo
  const roles = yield* RoleAssignmentsRepo
  const sessions = yield* SessionsRepo
  const memberships = yield* TeamMembersRepo
  const organizations = yield* Organizations
  const audit = yield* AuditLog
  const tx = yield* Transactor
  const guard = yield* makeGrantGuard

  const findByEmail = (organizationId: OrganizationId, email: string) =>
    users.findByEmail(organizationId, normalizeEmail(email)).pipe(orNotFound("user", email))

  return Users.of({
    findByEmail,
    add: (actor, organizationId, input) =>
      tx.withTransaction(Effect.gen(function*() {
        const email = decodeEmail(input.email)
        if (email._tag === "Left") return yield* ValidationFailed.single("email", "invalid", "must be an email address")
        yield* organizations.get(organizationId)
        yield* guard.require(actor, organizationId, [{ role: input.role, scope: { type: "organization", id: organizationId } }])
        const now = yield* DateTime.now
        const user = new User({
          id: yield* newId<"UserId">(),
          organization_id: organizationId,
          email: normalizeEmail(email.right),
          created_at: now
        })
        yield* users.insert(user).pipe(
          Effect.catchTag("AlreadyExists", () =>
            Effect.fail(new AlreadyExists({ message: `user ${user.email} already exists` })))
        )
        const assignment = new RoleAssignment({
          id: yield* newId<"RoleAssignmentId">(),
          organization_id: organizationId,
          subject_type: "user",
          subject_id: user.id,
          role: input.role,
          scope_type: "organization",
          scope_id: organizationId,
          created_at: now,
          updated_at: now
        })
        yield* roles.insert(assignment)
        yield* audit.record(actor, organizationId, RoleGrantAudit.created({ holder: { email: user.email }, assignment }))
        return user
      })).pipe(guard.audited(actor, organizationId, RoleGrantAudit.refused("create", null, {
        email: input.email,
        role: input.role,
        scope_type: "organization",
        scope_id: organizationId
      }))),
    remove: (actor, organizationId, email) =>
      tx.withTransaction(Effect.gen(function*() {
        const user = yield* findByEmail(organizationId, email)
        const now = yield* DateTime.now
        yield* sessions.revokeAllForUser(organizationId, user.id, now.pipe(DateTime.toDateUtc))
        const removedRoles = yield* roles.deleteForSubject(organizationId, "user", user.id)
        const removedMemberships = yield* memberships.deleteForUser(organizationId, user.id)
        yield* users.delete(organizationId, user.id)
        const entries: Array<AuditEntry> = [
          ...removedRoles.map((assignment) => RoleGrantAudit.deleted({ holder: { email: user.email }, assignment })),
          ...removedMemberships.map((membership) =>
            TeamMemberAudit.deleted({ ...membership, type: "user", identifier: user.email })
          ),
          UserRemovalAudit.deleted({ user, roles: removedRoles })
        ]
        yield* Effect.forEach(entries, (entry) => audit.record(actor, organizationId, entry), { discard: true })
      }))
  })
})

/**
 * @since 0.1.0
 * @category layers
 */
export const layer = Layer.effect(Users, make)
