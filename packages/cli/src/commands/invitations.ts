/**
 * `costline invitations create|list|revoke|accept`: invitations to an organization (audited
 * `invitation` events). `create` prints the invitation token once, alone on the last line of
 * stdout (like `keys create`); `accept` redeems it for the invitee and prints their session token.
 */
import { Command, Options } from "@effect/cli"
import { Actor, Errors, Invitation, Invitations } from "@costline/core"
import { Console, DateTime, Effect, Either, Option, Schema } from "effect"
import { parseExpiry } from "../Expiry.js"
import { CliFailure, coreLayer, database, json, org } from "../Options.js"
import { role } from "./users.js"

const email = Options.text("email").pipe(Options.withDescription("who is invited"))
const id = Options.text("id").pipe(Options.withDescription("the invitation's id, as `create` printed it"))
const expires = Options.text("expires").pipe(
  Options.withDescription("how long it can be accepted: a duration (7d, 12h, 2w) or a date (2027-01-31); default: 7d"),
  Options.optional
)
const token = Options.text("token").pipe(Options.withDescription("the invitation token (cli_…) that `create` printed"))

const isInvitationId = Schema.is(Invitation.InvitationId)

const view = (invitation: Invitation.Invitation) => ({
  id: invitation.id,
  email: invitation.email,
  role: invitation.role,
  invited_by: invitation.invited_by,
  created_at: DateTime.formatIso(invitation.created_at),
  expires_at: invitation.expires_at === null ? null : DateTime.formatIso(invitation.expires_at)
})

const create = Command.make("create", { org, email, role: role("viewer"), expires, json, database }, (args) =>
  Effect.gen(function*() {
    const now = yield* DateTime.now
    const expiresAt = Option.isSome(args.expires) ? parseExpiry(args.expires.value, now) : Either.right(undefined)
    if (Either.isLeft(expiresAt)) return yield* Effect.fail(new CliFailure(expiresAt.left))
    const { invitation, token } = yield* (yield* Invitations.Invitations).create(Actor.Actor.system(), args.org, {
      email: args.email,
      role: args.role,
      expiresAt: expiresAt.right
    })
    const shown = view(invitation)
    if (args.json) return yield* Console.log(JSON.stringify({ ...shown, token }))
    yield* Console.log(
      `invited ${invitation.email} to ${invitation.organization_id} as ${invitation.role}, id ${invitation.id}, ` +
        `expires ${shown.expires_at}; send them the token below (shown only now)`
    )
    yield* Console.log(token)
  }).pipe(Effect.provide(coreLayer(args.database)))).pipe(
    Command.withDescription("invite an email; prints the invitation token alone on the last line (--json: one object with id and token)")
  )

const revoke = Command.make("revoke", { org, id, database }, (args) =>
  Effect.gen(function*() {
    if (!isInvitationId(args.id)) return yield* new Errors.NotFound({ resource: "invitation", id: args.id })
    const invitation = yield* (yield* Invitations.Invitations).revoke(Actor.Actor.system(), args.org, args.id)
    yield* Console.log(`revoked the invitation of ${invitation.email}`)
  }).pipe(Effect.provide(coreLayer(args.database)))).pipe(Command.withDescription("revoke a pending invitation"))

const list = Command.make("list", { org, json, database }, (args) =>
  Effect.gen(function*() {
    const rows = (yield* (yield* Invitations.Invitations).listPending(args.org)).map(view)
    if (args.json) return yield* Console.log(JSON.stringify(rows))
    for (const row of rows) yield* Console.log(`${row.id}\t${row.email}\t${row.role}\t${row.created_at}\t${row.expires_at ?? "never"}`)
  }).pipe(Effect.provide(coreLayer(args.database)))).pipe(
    Command.withDescription("list pending invitations: id, email, role, created, expires (tab-separated; --json: an array)")
  )

const accept = Command.make("accept", { org, token, email: email.pipe(Options.withDescription("the invited email")), json, database }, (args) =>
  Effect.gen(function*() {
    const accepted = yield* (yield* Invitations.Invitations).accept(args.org, { token: args.token, email: args.email })
    const expiresAt = DateTime.formatIso(accepted.session.expires_at)
    if (args.json) {
      return yield* Console.log(JSON.stringify({
        email: accepted.user.email,
        role: accepted.invitation.role,
        organization_id: args.org,
        session: { token: accepted.token, expires_at: expiresAt }
      }))
    }
    yield* Console.log(
      `${accepted.user.email} joined ${args.org} as ${accepted.invitation.role}; session expires ${expiresAt}`
    )
    yield* Console.log(accepted.token)
  }).pipe(Effect.provide(coreLayer(args.database)))).pipe(
    Command.withDescription("accept an invitation: the email becomes a member; prints their session token last")
  )

export const invitations = Command.make("invitations").pipe(
  Command.withDescription("invite people to an organization"),
  Command.withSubcommands([create, revoke, list, accept])
)
