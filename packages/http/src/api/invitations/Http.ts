/** Accepting an invitation: core's Invitations; every token it cannot accept spends a failure of the address. */
import { Invitations } from "@costline/core"
import { Effect } from "effect"
import { AuthFailureGate } from "../../middleware/AuthFailureLimit.js"
import { CostlineApi } from "../Api.js"
import * as Respond from "../Respond.js"
import { Visitor } from "./Visitor.js"
import * as Group from "../Group.js"

export const InvitationsHttpLive = Group.group(CostlineApi, "invitations", (handlers) =>
  Effect.map(Effect.all([Invitations.Invitations, AuthFailureGate]), ([invitations, failures]) =>
    handlers.handle("acceptInvitation", ({ payload }) =>
      Effect.gen(function*() {
        const visitor = yield* Visitor
        const accepted = yield* invitations.accept(visitor.organizationId, payload, { requestId: visitor.requestId }).pipe(
          Effect.tapErrorTag("NotFound", () => failures.record)
        )
        yield* Respond.noStore
        return {
          organization_id: visitor.organizationId,
          email: accepted.user.email,
          role: accepted.invitation.role,
          session: { token: accepted.token, expires_at: accepted.session.expires_at }
        }
      }))))
