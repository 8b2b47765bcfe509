/** Enforces the access policy; a denied write is itself audited (`status: failure`). */
import { Context, Effect, Layer } from "effect"
import type { AuditEntry } from "../audit/Domain.js"
import { AuditLog } from "../audit/AuditLog.js"
import { Actor } from "../shared/Actor.js"
import { Forbidden, type StoreUnavailable } from "../shared/Errors.js"
import type { Principal } from "./Domain.js"
import { changedBy, isAllowed, type Permission } from "./Permissions.js"

/**
 * @since 0.1.0
 * @category tags
 */
export class Authorization extends Context.Tag("@costline/core/Authorization")<
  Authorization,
  {
    /**
     * Fails with Forbidden unless the principal holds the permission. When `attempted` names the
     * change that was refused, a failure record for it is appended.
     */
    readonly require: (
      principal: Principal,
      permission: Permission,
      attempted?: { readonly entry: AuditEntry; readonly requestId: string | null }
    ) => Effect.Effect<void, Forbidden | StoreUnavailable>
  }
>() {}

/**
 * The actor of a principal's change: named for the audit log, and bounded by the principal's rights.
 * @since 0.1.0
 * @category utils
 */
export const actorOf = (principal: Principal, requestId: string | null): Actor =>
  // Built from typed values (the principal was decoded when it was read): validating the principal
  // again took ~4% of an authenticated request's CPU.
  new Actor({ ...changedBy(principal), requestId, principal }, { disableValidation: true })

/**
 * @since 0.1.0
 * @category constructors
 */
export const make = Effect.gen(function*() {
  const audit = yield* AuditLog
  return Authorization.of({
    require: (principal, permission, attempted) =>
      Effect.gen(function*() {
        if (isAllowed(principal, permission)) return
        if (attempted !== undefined) {
          yield* audit.record(actorOf(principal, attempted.requestId), principal.organizationId, {
            ...attempted.entry,
            status: "failure"
          })
        }
        return yield* new Forbidden({ message: `not allowed to ${permission.action} ${permission.area}` })
      })
  })
})

/**
 * @since 0.1.0
 * @category layers
 */
export const layer = Layer.effect(Authorization, make)
