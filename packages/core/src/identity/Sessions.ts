/**
 * User sessions: minted by the host's login flow for an existing member. Login and logout are
 * audited as `session` events.
 */
import { Context, DateTime, Duration, Effect, Layer } from "effect"
import { AuditLog } from "../audit/AuditLog.js"
import { Actor } from "../shared/Actor.js"
import type { NotFound, StoreUnavailable } from "../shared/Errors.js"
import { newId, type OrganizationId, type SessionId } from "../shared/Ids.js"
import { Transactor } from "../shared/Transactor.js"
import * as ApiToken from "./ApiToken.js"
import { Session, SessionAudit } from "./Domain.js"
import { SessionsRepo } from "./Repo.js"
import { Users } from "./Users.js"

/**
 * @since 0.1.0
 * @category constants
 */
export const DEFAULT_SESSION_TTL = Duration.hours(12)

/**
 * @since 0.1.0
 * @category tags
 */
export class Sessions extends Context.Tag("@costline/core/Sessions")<
  Sessions,
  {
    readonly create: (
      organizationId: OrganizationId,
      email: string,
      options?: { readonly ttl?: Duration.DurationInput; readonly requestId?: string | null }
    ) => Effect.Effect<{ session: Session; token: string }, NotFound | StoreUnavailable>
    /** Ends a session (logout). Ending one that already ended is a no-op and writes nothing. */
    readonly end: (
      organizationId: OrganizationId,
      id: SessionId,
      email: string,
      requestId?: string | null
    ) => Effect.Effect<void, StoreUnavailable>
    /** Ends every live session of a member (an operator's revocation); each is audited as a logout. */
    readonly revokeForUser: (
      actor: Actor,
      organizationId: OrganizationId,
      email: string
    ) => Effect.Effect<number, NotFound | StoreUnavailable>
  }
>() {}

/**
 * @since 0.1.0
 * @category constructors
 */
export const make = Effect.gen(function*() {
  const repo = yield* SessionsRepo
  const users = yield* Users
  const audit = yield* AuditLog
  const tx = yield* Transactor

  const asUser = (email: string, requestId: string | null) =>
    new Actor({ changedBy: email, changedByType: "user", requestId })

  return Sessions.of({
    create: (organizationId, email, options) =>
      tx.withTransaction(Effect.gen(function*() {
        const user = yield* users.findByEmail(organizationId, email)
        const now = yield* DateTime.now
        const token = ApiToken.generate("session")
        const session = new Session({
          id: yield* newId<"SessionId">(),
          organization_id: organizationId,
          user_id: user.id,
          created_at: now,
          expires_at: DateTime.addDuration(now, options?.ttl ?? DEFAULT_SESSION_TTL),
          revoked_at: null
        })
        yield* repo.insert(session, ApiToken.hash(token))
        yield* audit.record(
          asUser(user.email, options?.requestId ?? null),
          organizationId,
          SessionAudit.created({ id: session.id, email: user.email })
        )
        return { session, token }
      })),
    end: (organizationId, id, email, requestId) =>
      tx.withTransaction(Effect.gen(function*() {
        const now = yield* DateTime.now
        const ended = yield* repo.revoke(id, DateTime.toDateUtc(now))
        if (!ended) return
        yield* audit.record(asUser(email, requestId ?? null), organizationId, SessionAudit.deleted({ id, email }))
      })),
    revokeForUser: (actor, organizationId, email) =>
      tx.withTransaction(Effect.gen(function*() {
        const user = yield* users.findByEmail(organizationId, email)
        const ended = yield* repo.revokeAllForUser(organizationId, user.id, DateTime.toDateUtc(yield* DateTime.now))
        for (const id of ended) {
          yield* audit.record(actor, organizationId, SessionAudit.deleted({ id, email: user.email }))
        }
        return ended.length
      }))
  })
})

/**
 * @since 0.1.0
 * @category layers
 */
export const layer = Layer.effect(Sessions, make)
