/**
 * An invitation to join an organization: pending until it is accepted (once, with its token),
 * revoked, or expires.
 */
import { Duration, Schema } from "effect"
import * as Audited from "../audit/internal/Audited.js"
import type { AuditEntry } from "../audit/Domain.js"
import { ChangedByType } from "../shared/Actor.js"
import { OrganizationId } from "../shared/Ids.js"
import { Role } from "./Domain.js"

/**
 * @since 0.1.0
 * @category schemas
 */
export const InvitationId = Schema.UUID.pipe(Schema.brand("InvitationId"))
/**
 * @since 0.1.0
 * @category models
 */
export type InvitationId = typeof InvitationId.Type

/**
 * How long an invitation can be accepted when its creator names no other time.
 * @since 0.1.0
 * @category constants
 */
export const DEFAULT_INVITATION_TTL = Duration.days(7)

/**
 * @since 0.1.0
 * @category models
 */
export class Invitation extends Schema.Class<Invitation>("Invitation")({
  id: InvitationId,
  organization_id: OrganizationId,
  /** Normalised to lower case, like members' emails. */
  email: Schema.String,
  /** The organization-wide role the invitee will hold. */
  role: Role,
  /** Who invited, as the audit log names them. */
  invited_by: Schema.String,
  /** What the inviter was, and its user or key id (null: the operator), to re-check its rights on acceptance. */
  inviter_type: ChangedByType,
  inviter_id: Schema.NullOr(Schema.String),
  created_at: Schema.DateTimeUtc,
  /** Null only on invitations made before tokens existed (migration 1700): they cannot be accepted. */
  expires_at: Schema.NullOr(Schema.DateTimeUtc),
  revoked_at: Schema.NullOr(Schema.DateTimeUtc),
  accepted_at: Schema.NullOr(Schema.DateTimeUtc)
}) {}

/**
 * An invitation is the `invitation` event: created, then revoked (by an operator, or on expiry when replaced).
 * @since 0.1.0
 * @category utils
 */
export const InvitationAudit = Audited.event<Invitation>("invitation", "invitations", {
  id: (invitation) => invitation.id,
  values: (invitation) => ({ email: invitation.email, role: invitation.role }),
  operations: { delete: "revoke" }
})

/**
 * Acceptance closes the invitation. The contract names two `invitation` operations (`create`,
 * `revoke`); closing is `revoke`, told apart from an operator's by `new_values` (the invitation as
 * accepted, where a revocation has null) and by `changed_by` (the invitee). See decisions.md.
 * @since 0.1.0
 * @category utils
 */
export const invitationAccepted = (invitation: Invitation): AuditEntry => ({
  target: { event_type: "invitation" },
  table_name: "invitations",
  record_id: invitation.id,
  operation: "revoke",
  old_values: { email: invitation.email, role: invitation.role },
  new_values: { email: invitation.email, role: invitation.role, accepted: true }
})
