/** An invitation to join an organization, pending until it is revoked. */
import { Schema } from "effect"
import * as Audited from "../audit/Audited.js"
import { OrganizationId } from "../shared/Ids.js"
import { Role } from "./Domain.js"

export const InvitationId = Schema.UUID.pipe(Schema.brand("InvitationId"))
export type InvitationId = typeof InvitationId.Type

export class Invitation extends Schema.Class<Invitation>("Invitation")({
  id: InvitationId,
  organization_id: OrganizationId,
  /** Normalised to lower case, like members' emails. */
  email: Schema.String,
  /** The organization-wide role the invitee will hold. */
  role: Role,
  /** Who invited, as the audit log names them. */
  invited_by: Schema.String,
  created_at: Schema.DateTimeUtc,
  revoked_at: Schema.NullOr(Schema.DateTimeUtc)
}) {}

/** An invitation is the `invitation` event: created, then perhaps revoked. */
export const InvitationAudit = Audited.event<Invitation>("invitation", "invitations", {
  id: (invitation) => invitation.id,
  values: (invitation) => ({ email: invitation.email, role: invitation.role }),
  operations: { delete: "revoke" }
})
