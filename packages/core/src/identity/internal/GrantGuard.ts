/**
 * Enforces the grant rule (GrantRule) inside the services that grant: direct user roles, team
 * roles, team members, all-users teams, SSO group mappings. An embedder calling those services
 * gets the same rule as the HTTP API, because the rights come with the actor (`actorOf`).
 *
 * A refused change is audited like every refused write: `status: failure`, written after the
 * change's transaction rolled back, so the record is kept.
 */
import { Effect } from "effect"
import type { AuditEntry } from "../../audit/Domain.js"
import { AuditLog } from "../../audit/AuditLog.js"
import type { Actor } from "../../shared/Actor.js"
import { Forbidden, type StoreUnavailable } from "../../shared/Errors.js"
import type { OrganizationId } from "../../shared/Ids.js"
import type { Principal } from "../Domain.js"
import { firstRefused, type Holding, holdingsOfKey, holdingsOfRoles, refusalMessage, type ScopedGrant } from "../GrantRule.js"
import { makeEffectiveRolesReader } from "../RoleSources.js"

/** Whose rights bound a change: the operator (unbounded), a principal, or nobody known. */
export type Authority =
  | { readonly _tag: "Operator" }
  | { readonly _tag: "Principal"; readonly principal: Principal }
  | { readonly _tag: "Unknown" }

export const authorityOf = (actor: Actor): Authority =>
  actor.changedByType === "system"
    ? { _tag: "Operator" }
    : actor.principal === undefined
    ? { _tag: "Unknown" }
    : { _tag: "Principal", principal: actor.principal }

export const unknownAuthority = new Forbidden({
  message: "the actor carries no principal (build it with actorOf), so what it may change is unknown"
})

export const makeGrantGuard = Effect.gen(function*() {
  const effectiveRoles = yield* makeEffectiveRolesReader
  const audit = yield* AuditLog

  /** What a principal holds now: a user's roles are read afresh, in the caller's transaction. */
  const holdingsOf = (principal: Principal): Effect.Effect<ReadonlyArray<Holding>, StoreUnavailable> =>
    principal._tag === "ApiKey"
      ? Effect.succeed(holdingsOfKey(principal))
      : Effect.map(effectiveRoles(principal.organizationId, principal.userId), holdingsOfRoles)

  return {
    /** Fails with Forbidden unless the actor may make every grant. Call it inside the change's transaction. */
    require: (
      actor: Actor,
      organizationId: OrganizationId,
      grants: ReadonlyArray<ScopedGrant>
    ): Effect.Effect<void, Forbidden | StoreUnavailable> =>
      Effect.gen(function*() {
        if (grants.length === 0) return
        const authority = authorityOf(actor)
        if (authority._tag === "Operator") return
        if (authority._tag === "Unknown") return yield* unknownAuthority
        if (authority.principal.organizationId !== organizationId) {
          return yield* new Forbidden({ message: "the caller does not belong to this organization" })
        }
        const refused = firstRefused(yield* holdingsOf(authority.principal), grants)
        if (refused !== undefined) return yield* new Forbidden({ message: refusalMessage(refused) })
      }),
    /**
     * Runs a change; when it is refused (Forbidden), appends the `failure` record of `attempt`
     * after the change's transaction has rolled back.
     */
    audited: (actor: Actor, organizationId: OrganizationId, attempt: AuditEntry) =>
    <A, E, R>(change: Effect.Effect<A, E, R>): Effect.Effect<A, E | StoreUnavailable, R> =>
      Effect.catchIf(
        change,
        (error): error is E & Forbidden => error instanceof Forbidden,
        (refused) => Effect.zipRight(audit.record(actor, organizationId, { ...attempt, status: "failure" }), Effect.fail(refused))
      )
  }
})

export type GrantGuard = Effect.Effect.Success<typeof makeGrantGuard>
