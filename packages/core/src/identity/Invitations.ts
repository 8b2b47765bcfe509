/** Invitations to an organization: created and revoked by operators, audited as `invitation` events. */
import { Context, DateTime, Effect, Layer, Option, Schema } from "effect"
import { AuditLog } from "../audit/AuditLog.js"
import type { Actor } from "../shared/Actor.js"
import { AlreadyExists, type Forbidden, NotFound, type StoreUnavailable, ValidationFailed } from "../shared/Errors.js"
import { newId, type OrganizationId } from "../shared/Ids.js"
import { Transactor } from "../shared/Transactor.js"
import { Email, type Role } from "./Domain.js"
import { makeGrantGuard } from "./GrantGuard.js"
import { Invitation, InvitationAudit, type InvitationId } from "./Invitation.js"
import { Organizations } from "./Organizations.js"
import { InvitationsRepo, UsersRepo } from "./Repo.js"
import { normalizeEmail } from "./Users.js"

const decodeEmail = Schema.decodeUnknownEither(Email)

export class Invitations extends Context.Tag("@costline/core/Invitations")<
  Invitations,
  {
    /**
     * Invites an email that is neither a member nor already invited. The invitation grants its
     * role on joining, so the actor must be able to grant it (GrantRule): Forbidden otherwise,
     * audited as a failure.
     */
    readonly create: (
      actor: Actor,
      organizationId: OrganizationId,
      input: { readonly email: string; readonly role: Role }
    ) => Effect.Effect<Invitation, ValidationFailed | AlreadyExists | NotFound | Forbidden | StoreUnavailable>
    /** Revokes a pending invitation; one that is unknown or already revoked is NotFound. */
    readonly revoke: (
      actor: Actor,
      organizationId: OrganizationId,
      id: InvitationId
    ) => Effect.Effect<Invitation, NotFound | StoreUnavailable>
    readonly listPending: (organizationId: OrganizationId) => Effect.Effect<ReadonlyArray<Invitation>, StoreUnavailable>
  }
>() {}

export const make = Effect.gen(function*() {
  const repo = yield* InvitationsRepo
  const users = yield* UsersRepo
  const organizations = yield* Organizations
  const audit = yield* AuditLog
  const tx = yield* Transactor
  const guard = yield* makeGrantGuard


  return Invitations.of({
    create: (actor, organizationId, input) =>
      tx.withTransaction(Effect.gen(function*() {
        const email = decodeEmail(input.email.trim())
        if (email._tag === "Left") return yield* ValidationFailed.single("email", "invalid", "must be an email address")
        yield* organizations.get(organizationId)
        yield* guard.require(actor, organizationId, [{ role: input.role, scope: { type: "organization", id: organizationId } }])
        const invitation = new Invitation({
          id: yield* newId<"InvitationId">(),
          organization_id: organizationId,
          email: normalizeEmail(email.right),
          role: input.role,
          invited_by: actor.changedBy,
          created_at: yield* DateTime.now,
          revoked_at: null
        })
        if (Option.isSome(yield* users.findByEmail(organizationId, invitation.email))) {
          return yield* new AlreadyExists({ message: `${invitation.email} is already a member` })
        }
        yield* repo.insert(invitation).pipe(
          Effect.catchTag("AlreadyExists", () =>
            Effect.fail(new AlreadyExists({ message: `${invitation.email} already has a pending invitation` })))
        )
        yield* audit.record(actor, organizationId, InvitationAudit.created(invitation))
        return invitation
      })).pipe(guard.audited(actor, organizationId, InvitationAudit.refused("create", null, { email: input.email, role: input.role }))),
    revoke: (actor, organizationId, id) =>
      tx.withTransaction(Effect.gen(function*() {
        const now = yield* DateTime.now
        const pending = yield* repo.revoke(organizationId, id, DateTime.toDateUtc(now))
        if (Option.isNone(pending)) return yield* new NotFound({ resource: "invitation", id })
        yield* audit.record(actor, organizationId, InvitationAudit.deleted(pending.value))
        return new Invitation({ ...pending.value, revoked_at: now })
      })),
    listPending: (organizationId) => repo.listPending(organizationId)
  })
})

export const layer = Layer.effect(Invitations, make)
