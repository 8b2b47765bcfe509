/**
 * Storing role grants and showing them, the same way for every subject (a user, a team, an SSO
 * group): scopes checked against the tenant first, duplicates refused by the store, scopes named
 * when shown.
 */
import { DateTime, Effect } from "effect"
import type { Actor } from "../../shared/Actor.js"
import type { AlreadyExists, Forbidden, StoreUnavailable, ValidationFailed } from "../../shared/Errors.js"
import { newId, type OrganizationId } from "../../shared/Ids.js"
import { makeGrantGuard } from "./GrantGuard.js"
import { RoleAssignmentsRepo } from "../Repo.js"
import { RoleAssignment, type ScopedRole, scopeRefOf, type SubjectType, toScopedRole } from "../RoleAssignment.js"
import type { RoleGrant } from "../Scope.js"
import { type CheckedGrant, Scopes } from "../Scopes.js"

export interface Subject {
  readonly type: SubjectType
  readonly id: string
}

export const makeGrants = Effect.gen(function*() {
  const scopes = yield* Scopes
  const assignments = yield* RoleAssignmentsRepo
  const guard = yield* makeGrantGuard

  /** Stores a checked grant; a duplicate fails with what `duplicate` says. */
  const store = <D>(
    organizationId: OrganizationId,
    subject: Subject,
    grant: CheckedGrant,
    createdAt: DateTime.Utc,
    duplicate: (assignment: RoleAssignment) => D
  ): Effect.Effect<RoleAssignment, D | StoreUnavailable> =>
    Effect.gen(function*() {
      const assignment = new RoleAssignment({
        id: yield* newId<"RoleAssignmentId">(),
        organization_id: organizationId,
        subject_type: subject.type,
        subject_id: subject.id,
        role: grant.role,
        scope_type: grant.scope.type,
        scope_id: grant.scope.id,
        created_at: createdAt,
        updated_at: createdAt
      })
      yield* assignments.insert(assignment).pipe(Effect.catchTag("AlreadyExists", () => Effect.fail(duplicate(assignment))))
      return assignment
    })

  return {
    guard,
    store,
    /**
     * Checks one grant's scope (issues at `scope.id`), that the actor may make it (Forbidden
     * otherwise, see GrantRule), and stores it.
     */
    grant: (
      actor: Actor,
      organizationId: OrganizationId,
      subject: Subject,
      input: RoleGrant,
      duplicate: (assignment: RoleAssignment) => AlreadyExists
    ): Effect.Effect<RoleAssignment, ValidationFailed | AlreadyExists | Forbidden | StoreUnavailable> =>
      Effect.gen(function*() {
        const [checked] = yield* scopes.checkGrants(organizationId, [input], () => "")
        yield* guard.require(actor, organizationId, [checked!])
        return yield* store(organizationId, subject, checked!, yield* DateTime.now, duplicate)
      }),
    /** Stored grants as reads show them: each scope with its target's current name. */
    named: (organizationId: OrganizationId, grants: ReadonlyArray<RoleAssignment>): Effect.Effect<ReadonlyArray<ScopedRole>, StoreUnavailable> =>
      Effect.map(
        scopes.describe(organizationId, grants.map(scopeRefOf)),
        (described) => grants.map((grant, index) => toScopedRole(grant, described[index]!))
      )
  }
})
