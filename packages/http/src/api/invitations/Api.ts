/**
 * `POST /v2/invitations/accept`: the invitee redeems the token of their invitation (no bearer
 * credential: the token is one) and becomes a member with the invited role, signed in. Any token
 * that cannot be accepted — unknown, expired, revoked, used, another email's — is the same 404;
 * failures are limited per address like failed authentication.
 */
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { Identity } from "@costline/core"
import { Schema } from "effect"
import { Access, Requires } from "../Access.js"
import { Declared } from "../Errors.js"
import { v2Anonymous } from "./Visitor.js"

export const AcceptInvitationV2 = Schema.Struct({
  /** The `cli_…` token the inviter was given when the invitation was created. */
  token: Schema.String.pipe(Schema.minLength(1), Schema.maxLength(200)),
  /** The invited email (any case). */
  email: Schema.String.pipe(Schema.minLength(1), Schema.maxLength(320))
}).annotations({ identifier: "AcceptInvitation" })

export const AcceptedInvitation = Schema.Struct({
  organization_id: Schema.String,
  email: Schema.String,
  role: Identity.Role,
  /** The new member's first session: its bearer token is shown in this response only. */
  session: Schema.Struct({ token: Schema.String, expires_at: Schema.DateTimeUtc })
}).annotations({ identifier: "AcceptedInvitation" })

const tag = OpenApi.annotations({
  title: "Invitations",
  description: "Accept an invitation to the organization: no bearer credential, the invitation's token is one."
})

export class InvitationsApi extends v2Anonymous(
  HttpApiGroup.make("invitations").annotateContext(tag).add(
    HttpApiEndpoint.post("acceptInvitation", "/invitations/accept")
      .annotate(Requires, Access.acceptInvitation)
      // Only the tenant header: no bearer credential.
      .annotate(OpenApi.Override, { security: [{ tenant: [] }] })
      .setPayload(AcceptInvitationV2)
      .addSuccess(AcceptedInvitation)
      .addError(Declared.ValidationFailed)
      .addError(Declared.Forbidden)
      .addError(Declared.AlreadyExists)
  )
) {}
