/**
 * A member's roles: the merged list (direct, default, team-inherited) and direct grants. Direct
 * grants are audited as `user_roles` on table `role_assignments`.
 */
import { Context, type DateTime, Effect, Either, Layer, Option } from "effect"
import { AuditLog } from "../audit/AuditLog.js"
import type { Actor } from "../shared/Actor.js"
import {
  AlreadyExists,
  Conflict,
  type Forbidden,
  type InvalidPageToken,
  NotFound,
  type StoreUnavailable,
  type ValidationFailed
} from "../shared/Errors.js"
import { type OrganizationId, parseId, RoleAssignmentId } from "../shared/Ids.js"
import {
  applyWindow,
  type Keyset,
  keysetOf,
  type KeysetRequest,
  ListCursors,
  type OffsetPage,
  offsetPage,
  type OffsetRequest,
  type RequestFields
} from "../shared/Listing.js"
import type { Page } from "../shared/Listing.js"
import { Transactor } from "../shared/Transactor.js"
import { directRole, type EffectiveRole, filter, isDirect, type RoleFilters, UserRole } from "./EffectiveRoles.js"
import { makeEffectiveRolesReader } from "./RoleSources.js"
import { RoleAssignmentsRepo } from "./Repo.js"
import { RoleGrantAudit } from "./RoleAssignment.js"
import { makeGrants } from "./internal/Grants.js"
import type { RoleGrant } from "./Scope.js"
import { Scopes } from "./Scopes.js"
import { Users } from "./Users.js"

const keyOf = (role: { readonly created_at: DateTime.Utc; readonly id: string }): Keyset =>
  keysetOf(role.created_at, role.id)

/**
 * @since 0.1.0
 * @category tags
 */
export class UserRoles extends Context.Tag("@costline/core/UserRoles")<
  UserRoles,
  {
    readonly list: (
      organizationId: OrganizationId,
      email: string,
      filters: RoleFilters,
      request: KeysetRequest,
      fields: RequestFields
    ) => Effect.Effect<Page<UserRole>, NotFound | InvalidPageToken | ValidationFailed | StoreUnavailable>
    readonly listOffset: (
      organizationId: OrganizationId,
      email: string,
      filters: RoleFilters,
      request: OffsetRequest,
      fields: RequestFields
    ) => Effect.Effect<OffsetPage<UserRole>, NotFound | ValidationFailed | StoreUnavailable>
    /**
     * Grants a role directly; the same role at the same scope twice is AlreadyExists. A role the
     * actor could not grant (GrantRule) is Forbidden, audited as a failure.
     */
    readonly grant: (
      actor: Actor,
      organizationId: OrganizationId,
      email: string,
      grant: RoleGrant
    ) => Effect.Effect<UserRole, NotFound | ValidationFailed | AlreadyExists | Forbidden | StoreUnavailable>
    /** Deletes a direct grant; a default or inherited role is a Conflict (it is changed where it comes from). */
    readonly revoke: (
      actor: Actor,
      organizationId: OrganizationId,
      email: string,
      roleId: string
    ) => Effect.Effect<void, NotFound | Conflict | StoreUnavailable>
  }
>() {}

const parseRoleId = parseId(RoleAssignmentId, "user_role")

/**
 * @since 0.1.0
 * @category constructors
 */
export const make = Effect.gen(function*() {
  const effectiveRoles = yield* makeEffectiveRolesReader
  const assignments = yield* RoleAssignmentsRepo
  const users = yield* Users
  const scopes = yield* Scopes
  const grants = yield* makeGrants
  const cursors = yield* ListCursors
  const audit = yield* AuditLog
  const tx = yield* Transactor

  const named = (organizationId: OrganizationId, roles: ReadonlyArray<EffectiveRole>) =>
    Effect.map(scopes.describe(organizationId, roles.map((role) => role.scope)), (described) =>
      roles.map((role, index) =>
        new UserRole({
          id: role.id,
          role: role.role,
          scope: described[index]!,
          is_default: role.is_default,
          granted_from_team_name: role.granted_from_team_name,
          created_at: role.created_at,
          updated_at: role.updated_at
        })
      ))

  const rolesOf = (organizationId: OrganizationId, email: string, filters: RoleFilters) =>
    Effect.gen(function*() {
      const user = yield* users.findByEmail(organizationId, email)
      return { user, roles: filter(yield* effectiveRoles(organizationId, user.id), filters) }
    })

  return UserRoles.of({
    list: (organizationId, email, filters, request, fields) =>
      Effect.gen(function*() {
        const { roles, user } = yield* rolesOf(organizationId, email, filters)
        const page = yield* cursors.keysetPage(
          organizationId,
          `user_roles:${user.id}`,
          request,
          fields,
          (window) => Effect.succeed(applyWindow(roles, window, keyOf)),
          keyOf
        )
        return { items: yield* named(organizationId, page.items), page_token: page.page_token }
      }),
    listOffset: (organizationId, email, filters, request, fields) =>
      Effect.gen(function*() {
        const { roles } = yield* rolesOf(organizationId, email, filters)
        const page = yield* offsetPage(
          request,
          fields,
          (window) => Effect.succeed(applyWindow(roles, window, keyOf)),
          Effect.succeed(roles.length)
        )
        return { items: yield* named(organizationId, page.items), remaining_count: page.remaining_count }
      }),
    grant: (actor, organizationId, email, grant) =>
      tx.withTransaction(Effect.gen(function*() {
        const user = yield* users.findByEmail(organizationId, email)
        const assignment = yield* grants.grant(actor, organizationId, { type: "user", id: user.id }, grant, (duplicate) =>
          new AlreadyExists({ message: `${user.email} already holds ${duplicate.role} at this ${duplicate.scope_type} scope` }))
        yield* audit.record(actor, organizationId, RoleGrantAudit.created({ holder: { email: user.email }, assignment }))
        const [role] = yield* named(organizationId, [directRole(assignment)])
        return role!
      })).pipe(grants.guard.audited(actor, organizationId, RoleGrantAudit.refused("create", null, {
        email,
        role: grant.role,
        scope_type: grant.scope.type,
        scope_id: grant.scope.id ?? null
      }))),
    revoke: (actor, organizationId, email, roleId) =>
      tx.withTransaction(Effect.gen(function*() {
        const { roles, user } = yield* rolesOf(organizationId, email, {})
        const wanted = Either.getOrUndefined(parseRoleId(roleId))
        const held = roles.filter((role) => role.id === wanted)
        const direct = held.find(isDirect)
        if (direct === undefined) {
          const other = held[0]
          if (other === undefined) return yield* new NotFound({ resource: "user_role", id: roleId })
          return yield* new Conflict({
            message: other.is_default
              ? "the default role comes from the all-users team; change the team's default_member_role instead"
              : `the role is inherited from team '${other.granted_from_team_name}'; remove it from the team instead`
          })
        }
        const removed = yield* assignments.deleteById(organizationId, roleId as RoleAssignmentId)
        if (Option.isNone(removed)) return yield* new NotFound({ resource: "user_role", id: roleId })
        yield* audit.record(actor, organizationId, RoleGrantAudit.deleted({ holder: { email: user.email }, assignment: removed.value }))
      }))
  })
})

/**
 * @since 0.1.0
 * @category layers
 */
export const layer = Layer.effect(UserRoles, make)
