/**
 * SSO group mappings. v2 addresses a mapping by id, v1 by name. Changes are audited as
 * `user_roles`: the mapping on table `sso_groups`, each of its roles on `role_assignments`.
 */
import { Context, DateTime, Effect, Layer } from "effect"
import { AuditLog } from "../audit/AuditLog.js"
import { RoleAssignmentsRepo } from "../identity/Repo.js"
import { makeGrants } from "../identity/internal/Grants.js"
import { conferredBy } from "../identity/GrantRule.js"
import { RoleGrantAudit, type ScopedRole } from "../identity/RoleAssignment.js"
import { Scopes } from "../identity/Scopes.js"
import type { Actor } from "../shared/Actor.js"
import { conditionalWrite, stale, written } from "../shared/internal/ConditionalWrite.js"
import {
  AlreadyExists,
  type Conflict,
  type Forbidden,
  type InvalidPageToken,
  NotFound,
  orNotFound,
  type StoreUnavailable,
  ValidationFailed
} from "../shared/Errors.js"
import * as ETag from "../shared/ETag.js"
import { newId, type OrganizationId } from "../shared/Ids.js"
import {
  keysetOf,
  type KeysetRequest,
  ListCursors,
  type OffsetPage,
  offsetPage,
  type OffsetRequest,
  type RequestFields,
  type Window
} from "../shared/Listing.js"
import type { Page } from "../shared/Listing.js"
import * as Precondition from "../shared/Precondition.js"
import { Transactor } from "../shared/Transactor.js"
import { type CreateSsoGroup, SsoGroup, SsoGroupAudit, type SsoGroupId, type SsoGroupPatch } from "./Domain.js"
import { SsoGroupsRepo } from "./Repo.js"

/**
 * A mapping with the roles it grants.
 * @since 0.1.0
 * @category models
 */
export interface SsoGroupWithRoles {
  readonly group: SsoGroup
  readonly roles: ReadonlyArray<ScopedRole>
}

/**
 * Strong ETag of what an update can change, the name; stored with the mapping whenever it is written.
 * @since 0.1.0
 * @category utils
 */
export const ssoGroupEtag = (group: Pick<SsoGroup, "name">): string => ETag.compute({ name: group.name })

type Io<A, E> = Effect.Effect<A, E | StoreUnavailable>

/**
 * @since 0.1.0
 * @category tags
 */
export class SsoGroups extends Context.Tag("@costline/core/SsoGroups")<
  SsoGroups,
  {
    /**
     * A name the organization already maps is AlreadyExists; every scope must exist in it. The
     * mapping grants its roles to the group's members, so the actor must be able to grant each
     * (GrantRule): Forbidden otherwise, audited as a failure.
     */
    readonly create: (
      actor: Actor,
      organizationId: OrganizationId,
      input: CreateSsoGroup
    ) => Io<SsoGroupWithRoles, ValidationFailed | AlreadyExists | Forbidden>
    readonly get: (organizationId: OrganizationId, id: SsoGroupId) => Io<SsoGroupWithRoles, NotFound>
    readonly list: (
      organizationId: OrganizationId,
      request: KeysetRequest,
      fields: RequestFields
    ) => Io<Page<SsoGroupWithRoles>, InvalidPageToken | ValidationFailed>
    readonly listOffset: (
      organizationId: OrganizationId,
      request: OffsetRequest,
      fields: RequestFields
    ) => Io<OffsetPage<SsoGroupWithRoles>, ValidationFailed>
    /**
     * A merge patch (rename); under an `If-Match` the mapping must still have that ETag. A new
     * name hands the mapping's roles to another group, so the actor must be able to grant each of
     * them (GrantRule): Forbidden otherwise, audited as a failure.
     */
    readonly update: <P extends Precondition.Precondition>(
      actor: Actor,
      organizationId: OrganizationId,
      id: SsoGroupId,
      patch: SsoGroupPatch,
      precondition: P
    ) => Io<SsoGroupWithRoles, NotFound | AlreadyExists | Precondition.Failed<P> | Conflict | Forbidden>
    /** v1: the mapping is named by its current name. Same rule as `update`. */
    readonly renameByName: (
      actor: Actor,
      organizationId: OrganizationId,
      name: string,
      newName: string
    ) => Io<SsoGroupWithRoles, NotFound | AlreadyExists | Conflict | Forbidden>
  }
>() {}

const groupKey = (entry: SsoGroupWithRoles) => keysetOf(entry.group.created_at, entry.group.id)

/**
 * @since 0.1.0
 * @category constructors
 */
export const make = Effect.gen(function*() {
  const repo = yield* SsoGroupsRepo
  const assignments = yield* RoleAssignmentsRepo
  const scopes = yield* Scopes
  const grants = yield* makeGrants
  const cursors = yield* ListCursors
  const audit = yield* AuditLog
  const tx = yield* Transactor

  const found = (id: string) => orNotFound("sso_group", id)

  /** Reads the roles of several mappings in one query. */
  const withRoles = (organizationId: OrganizationId, groups: ReadonlyArray<SsoGroup>) =>
    Effect.gen(function*() {
      const stored = yield* assignments.listForSubjects(organizationId, "sso_group", groups.map((group) => group.id))
      const roles = yield* grants.named(organizationId, stored)
      return groups.map((group) => ({
        group,
        roles: roles.filter((_, index) => stored[index]!.subject_id === group.id)
      }))
    })

  const one = (organizationId: OrganizationId, group: SsoGroup) =>
    Effect.map(withRoles(organizationId, [group]), (entries) => entries[0]!)

  const rows = (organizationId: OrganizationId) => (window: Window) =>
    Effect.flatMap(repo.list(organizationId, window), (groups) => withRoles(organizationId, groups))

  const nameTaken = (name: string) => new AlreadyExists({ message: `the SSO group '${name}' is already mapped` })

  const rename = (actor: Actor, before: SsoGroup, name: string | undefined) =>
    Effect.gen(function*() {
      const newName = name?.trim() ?? before.name
      if (newName === before.name) return written(before)
      yield* grants.guard.require(actor, before.organization_id, conferredBy(yield* assignments.listForSubject(before.organization_id, "sso_group", before.id)))
      const after = new SsoGroup({ ...before, name: newName, updated_at: yield* DateTime.now, etag: ssoGroupEtag({ name: newName }) })
      const wrote = yield* repo.update(after, before).pipe(Effect.catchTag("AlreadyExists", () => Effect.fail(nameTaken(newName))))
      if (!wrote) return stale
      yield* audit.record(actor, before.organization_id, SsoGroupAudit.updated(before, after))
      return written(after)
    })

  return SsoGroups.of({
    create: (actor, organizationId, input) =>
      tx.withTransaction(Effect.gen(function*() {
        const checked = yield* scopes.checkGrants(organizationId, input.roles, (index) => `roles[${index}]`)
        yield* grants.guard.require(actor, organizationId, checked)
        const now = yield* DateTime.now
        const group = new SsoGroup({
          id: yield* newId<"SsoGroupId">(),
          organization_id: organizationId,
          name: input.name.trim(),
          created_at: now,
          updated_at: now,
          etag: ssoGroupEtag({ name: input.name.trim() })
        })
        yield* repo.insert(group).pipe(Effect.catchTag("AlreadyExists", () => Effect.fail(nameTaken(group.name))))
        yield* audit.record(actor, organizationId, SsoGroupAudit.created(group))
        for (const [index, grant] of checked.entries()) {
          // One millisecond apart, so the roles list in the order they were given.
          const assignment = yield* grants.store(organizationId, { type: "sso_group", id: group.id }, grant, DateTime.add(now, { millis: index }), () =>
            ValidationFailed.single(`roles[${index}]`, "duplicate", `${grant.role} at this ${grant.scope.type} scope is listed twice`))
          yield* audit.record(actor, organizationId, RoleGrantAudit.created({ holder: { sso_group: group.name }, assignment }))
        }
        return yield* one(organizationId, group)
      })).pipe(grants.guard.audited(actor, organizationId, SsoGroupAudit.refused("create", null, {
        name: input.name,
        roles: input.roles.map((grant) => ({ role: grant.role, scope_type: grant.scope.type, scope_id: grant.scope.id ?? null }))
      }))),
    get: (organizationId, id) =>
      repo.findById(organizationId, id).pipe(found(id), Effect.flatMap((group) => one(organizationId, group))),
    list: (organizationId, request, fields) =>
      cursors.keysetPage(organizationId, "sso_groups", request, fields, rows(organizationId), groupKey),
    listOffset: (organizationId, request, fields) =>
      offsetPage(request, fields, rows(organizationId), repo.count(organizationId)),
    update: (actor, organizationId, id, patch, precondition) =>
      tx.withTransaction(
        conditionalWrite({
          what: "the SSO group",
          precondition,
          read: repo.findById(organizationId, id).pipe(found(id)),
          write: (before) => rename(actor, before, patch.name)
        }).pipe(Effect.flatMap((group) => one(organizationId, group)))
      ).pipe(grants.guard.audited(actor, organizationId, SsoGroupAudit.refused("update", id, { ...patch }))),
    renameByName: (actor, organizationId, name, newName) =>
      tx.withTransaction(
        conditionalWrite({
          what: "the SSO group",
          precondition: Precondition.none,
          read: repo.findByName(organizationId, name).pipe(found(name)),
          write: (before) => rename(actor, before, newName)
        }).pipe(Effect.flatMap((group) => one(organizationId, group)))
      ).pipe(grants.guard.audited(
        actor,
        organizationId,
        SsoGroupAudit.refused("update", null, { sso_group_name: name, new_sso_group_name: newName })
      ))
  })
})

/**
 * @since 0.1.0
 * @category layers
 */
export const layer = Layer.effect(SsoGroups, make)
