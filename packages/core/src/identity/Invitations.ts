/**
 * Invitations to an organization: created and revoked by operators (or a host's admins), accepted
 * once by the invitee with the token shown at creation. All audited as `invitation` events.
 */
import { Context, DateTime, Effect, Layer, Option, Schema } from "effect"
import { AuditLog } from "../audit/AuditLog.js"
import { Actor } from "../shared/Actor.js"
import { AlreadyExists, Forbidden, NotFound, type StoreUnavailable, ValidationFailed } from "../shared/Errors.js"
import { type ApiKeyId, newId, type OrganizationId, type UserId } from "../shared/Ids.js"
import { Transactor } from "../shared/Transactor.js"
import * as ApiToken from "./ApiToken.js"
import { Email, type Role, type Session, User } from "./Domain.js"
import { makeGrantGuard } from "./internal/GrantGuard.js"
import { firstRefused, type Holding, holdingsOfKey, holdingsOfRoles } from "./GrantRule.js"
import { DEFAULT_INVITATION_TTL, Invitation, InvitationAudit, invitationAccepted, type InvitationId } from "./Invitation.js"
import { Organizations } from "./Organizations.js"
import { ApiKeysRepo, InvitationsRepo, RoleAssignmentsRepo, UsersRepo } from "./Repo.js"
import { RoleAssignment, RoleGrantAudit } from "./RoleAssignment.js"
import { makeEffectiveRolesReader } from "./RoleSources.js"
import { Sessions } from "./Sessions.js"
import { normalizeEmail } from "./Users.js"

const decodeEmail = Schema.decodeUnknownEither(Email)

/**
 * The one answer to a token that cannot be accepted — unknown, malformed, expired, revoked, already
 * used, or for another email — so that a caller learns nothing about which.
 * @since 0.1.0
 * @category utils
 */
export const invitationNotAcceptable = new NotFound({ resource: "invitation", id: "for this token and email" })

/**
 * @since 0.1.0
 * @category models
 */
export interface CreateInvitation {
  readonly email: string
  readonly role: Role
  /** When it stops being acceptable; default: 7 days from now (`DEFAULT_INVITATION_TTL`). */
  readonly expiresAt?: DateTime.Utc | undefined
}

/**
 * @since 0.1.0
 * @category models
 */
export interface AcceptInvitation {
  /** The `cli_…` token `create` returned. */
  readonly token: string
  /** The invitee's email: must be the invited one (any case). */
  readonly email: string
}

/**
 * @since 0.1.0
 * @category models
 */
export interface Accepted {
  readonly invitation: Invitation
  readonly user: User
  /** The new member's first session and its token, shown once. */
  readonly session: Session
  readonly token: string
}

/**
 * @since 0.1.0
 * @category tags
 */
export class Invitations extends Context.Tag("@costline/core/Invitations")<
  Invitations,
  {
    /**
     * Invites an email that is neither a member nor already invited; returns the invitation and
     * its token, which is stored only as a hash and never retrievable again. The invitation grants
     * its role on acceptance, so the actor must be able to grant it (GrantRule): Forbidden
     * otherwise, audited as a failure. An expired invitation of the same email is revoked first.
     */
    readonly create: (
      actor: Actor,
      organizationId: OrganizationId,
      input: CreateInvitation
    ) => Effect.Effect<{ invitation: Invitation; token: string }, ValidationFailed | AlreadyExists | NotFound | Forbidden | StoreUnavailable>
    /** Revokes an open invitation; one that is unknown, revoked or accepted is NotFound. */
    readonly revoke: (
      actor: Actor,
      organizationId: OrganizationId,
      id: InvitationId
    ) => Effect.Effect<Invitation, NotFound | StoreUnavailable>
    /**
     * Makes the invitee a member with the invited role and opens their first session, consuming
     * the invitation: of concurrent acceptances exactly one succeeds. Every token that cannot be
     * accepted is the same NotFound (`invitationNotAcceptable`). The inviter must still be able
     * to grant the role (GrantRule, re-checked now): Forbidden otherwise, audited as a failure,
     * and the invitation stays open. AlreadyExists when the email became a member meanwhile.
     */
    readonly accept: (
      organizationId: OrganizationId,
      input: AcceptInvitation,
      options?: { readonly requestId?: string | null | undefined }
    ) => Effect.Effect<Accepted, NotFound | Forbidden | AlreadyExists | StoreUnavailable>
    /** Invitations that can still be accepted: open and unexpired. */
    readonly listPending: (organizationId: OrganizationId) => Effect.Effect<ReadonlyArray<Invitation>, StoreUnavailable>
  }
>() {}

/**
 * @since 0.1.0
 * @category constructors
 */
export const make = Effect.gen(function*() {
  const repo = yield* InvitationsRepo
  const users = yield* UsersRepo
  const roles = yield* RoleAssignmentsRepo
  const apiKeys = yield* ApiKeysRepo
  const organizations = yield* Organizations
  const sessions = yield* Sessions
  const audit = yield* AuditLog
  const tx = yield* Transactor
  const guard = yield* makeGrantGuard
  const effectiveRoles = yield* makeEffectiveRolesReader

  /** What the inviter holds now; undefined for the operator, who is not bounded. */
  const inviterHoldings = (invitation: Invitation, now: DateTime.Utc): Effect.Effect<ReadonlyArray<Holding> | undefined, StoreUnavailable> => {
    const organizationId = invitation.organization_id
    if (invitation.inviter_type === "system") return Effect.succeed(undefined)
    if (invitation.inviter_id === null) return Effect.succeed([])
    if (invitation.inviter_type === "user") {
      // A removed user holds no role any more.
      return Effect.map(effectiveRoles(organizationId, invitation.inviter_id as UserId), holdingsOfRoles)
    }
    return Effect.map(apiKeys.findById(organizationId, invitation.inviter_id as ApiKeyId), (found) =>
      Option.match(Option.filter(found, (key) => key.revoked_at === null && (key.expires_at === null || DateTime.lessThan(now, key.expires_at))), {
        onNone: () => [],
        onSome: (key) =>
          holdingsOfKey({ _tag: "ApiKey", organizationId, keyId: key.id, name: key.name, access: key.access, scopes: key.scopes })
      }))
  }

  return Invitations.of({
    create: (actor, organizationId, input) =>
      tx.withTransaction(Effect.gen(function*() {
        const email = decodeEmail(input.email.trim())
        if (email._tag === "Left") return yield* ValidationFailed.single("email", "invalid", "must be an email address")
        const now = yield* DateTime.now
        if (input.expiresAt !== undefined && !DateTime.lessThan(now, input.expiresAt)) {
          return yield* ValidationFailed.single("expires_at", "invalid", "must be in the future")
        }
        yield* organizations.get(organizationId)
        yield* guard.require(actor, organizationId, [{ role: input.role, scope: { type: "organization", id: organizationId } }])
        const principal = actor.principal
        const invitation = new Invitation({
          id: yield* newId<"InvitationId">(),
          organization_id: organizationId,
          email: normalizeEmail(email.right),
          role: input.role,
          invited_by: actor.changedBy,
          inviter_type: actor.changedByType,
          inviter_id: principal === undefined ? null : principal._tag === "ApiKey" ? principal.keyId : principal.userId,
          created_at: now,
          expires_at: input.expiresAt ?? DateTime.addDuration(now, DEFAULT_INVITATION_TTL),
          revoked_at: null,
          accepted_at: null
        })
        if (Option.isSome(yield* users.findByEmail(organizationId, invitation.email))) {
          return yield* new AlreadyExists({ message: `${invitation.email} is already a member` })
        }
        // An expired invitation no longer blocks its email; it is revoked (and audited) in passing.
        const expired = yield* repo.revokeExpired(organizationId, invitation.email, DateTime.toDateUtc(now))
        for (const old of expired) yield* audit.record(actor, organizationId, InvitationAudit.deleted(old))
        const token = ApiToken.generate("invitation")
        yield* repo.insert(invitation, ApiToken.hash(token)).pipe(
          Effect.catchTag("AlreadyExists", () =>
            Effect.fail(new AlreadyExists({ message: `${invitation.email} already has a pending invitation` })))
        )
        yield* audit.record(actor, organizationId, InvitationAudit.created(invitation))
        return { invitation, token }
      })).pipe(guard.audited(actor, organizationId, InvitationAudit.refused("create", null, { email: input.email, role: input.role }))),
    revoke: (actor, organizationId, id) =>
      tx.withTransaction(Effect.gen(function*() {
        const now = yield* DateTime.now
        const pending = yield* repo.revoke(organizationId, id, DateTime.toDateUtc(now))
        if (Option.isNone(pending)) return yield* new NotFound({ resource: "invitation", id })
        yield* audit.record(actor, organizationId, InvitationAudit.deleted(pending.value))
        return new Invitation({ ...pending.value, revoked_at: now })
      })),
    accept: (organizationId, input, options) => {
      const requestId = options?.requestId ?? null
      const email = normalizeEmail(input.email)
      const invitee = new Actor({ changedBy: email, changedByType: "user", requestId })
      // Set when the inviter's rights refuse the grant: the failure record names the invitation.
      let refused: Invitation | undefined
      return tx.withTransaction(Effect.gen(function*() {
        if (ApiToken.parse(input.token) !== "invitation") return yield* invitationNotAcceptable
        const now = yield* DateTime.now
        // The compare-and-set comes first: a concurrent acceptance waits here and then finds nothing.
        const open = yield* repo.accept(organizationId, ApiToken.hash(input.token), email, DateTime.toDateUtc(now))
        if (Option.isNone(open)) return yield* invitationNotAcceptable
        const invitation = open.value
        const grant = { role: invitation.role, scope: { type: "organization" as const, id: organizationId } }
        const held = yield* inviterHoldings(invitation, now)
        if (held !== undefined && firstRefused(held, [grant]) !== undefined) {
          refused = invitation
          return yield* new Forbidden({
            message: `the inviter may no longer grant ${invitation.role}, so this invitation cannot be accepted; ask for a new one`
          })
        }
        const user = new User({ id: yield* newId<"UserId">(), organization_id: organizationId, email: invitation.email, created_at: now })
        yield* users.insert(user).pipe(
          Effect.catchTag("AlreadyExists", () => Effect.fail(new AlreadyExists({ message: `${user.email} is already a member` })))
        )
        const assignment = new RoleAssignment({
          id: yield* newId<"RoleAssignmentId">(),
          organization_id: organizationId,
          subject_type: "user",
          subject_id: user.id,
          role: invitation.role,
          scope_type: "organization",
          scope_id: organizationId,
          created_at: now,
          updated_at: now
        })
        yield* roles.insert(assignment)
        yield* audit.record(invitee, organizationId, invitationAccepted(invitation))
        yield* audit.record(invitee, organizationId, RoleGrantAudit.created({ holder: { email: user.email }, assignment }))
        const { session, token } = yield* sessions.create(organizationId, user.email, { requestId })
        return { invitation: new Invitation({ ...invitation, accepted_at: now }), user, session, token }
      })).pipe(
        Effect.catchTag("Forbidden", (error) =>
          refused === undefined
            ? Effect.fail(error)
            : Effect.zipRight(
              audit.record(invitee, organizationId, InvitationAudit.refused("delete", refused.id, { email: refused.email, role: refused.role, accepted: true })),
              Effect.fail(error)
            ))
      )
    },
    listPending: (organizationId) =>
      Effect.flatMap(DateTime.now, (now) => repo.listPending(organizationId, DateTime.toDateUtc(now)))
  })
})

/**
 * @since 0.1.0
 * @category layers
 */
export const layer = Layer.effect(Invitations, make)
