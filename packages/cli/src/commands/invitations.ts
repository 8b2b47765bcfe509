/** `costline invitations create|revoke|list`: invitations to an organization (audited `invitation` events). */
import { Command, Options } from "@effect/cli"
import { Actor, InvitationId, Invitations, NotFound } from "@costline/core"
import { Console, DateTime, Effect, Schema } from "effect"
import { coreLayer, database, json, org } from "../Options.js"
import { role } from "./users.js"

const email = Options.text("email").pipe(Options.withDescription("who is invited"))
const id = Options.text("id").pipe(Options.withDescription("the invitation's id, as `create` printed it"))

const isInvitationId = Schema.is(InvitationId)

const create = Command.make("create", { org, email, role: role("viewer"), database }, (args) =>
  Effect.gen(function*() {
    const invitation = yield* (yield* Invitations).create(Actor.system(), args.org, {
      email: args.email,
      role: args.role
    })
    yield* Console.log(`invited ${invitation.email} to ${invitation.organization_id} as ${invitation.role}`)
    yield* Console.log(invitation.id)
  }).pipe(Effect.provide(coreLayer(args.database)))).pipe(Command.withDescription("invite an email; prints the invitation id last"))

const revoke = Command.make("revoke", { org, id, database }, (args) =>
  Effect.gen(function*() {
    if (!isInvitationId(args.id)) return yield* new NotFound({ resource: "invitation", id: args.id })
    const invitation = yield* (yield* Invitations).revoke(Actor.system(), args.org, args.id)
    yield* Console.log(`revoked the invitation of ${invitation.email}`)
  }).pipe(Effect.provide(coreLayer(args.database)))).pipe(Command.withDescription("revoke a pending invitation"))

const list = Command.make("list", { org, json, database }, (args) =>
  Effect.gen(function*() {
    const pending = yield* (yield* Invitations).listPending(args.org)
    const rows = pending.map((invitation) => ({
      id: invitation.id,
      email: invitation.email,
      role: invitation.role,
      invited_by: invitation.invited_by,
      created_at: DateTime.formatIso(invitation.created_at)
    }))
    if (args.json) return yield* Console.log(JSON.stringify(rows))
    for (const row of rows) yield* Console.log(`${row.id}\t${row.email}\t${row.role}\t${row.created_at}`)
  }).pipe(Effect.provide(coreLayer(args.database)))).pipe(
    Command.withDescription("list pending invitations: id, email, role, created (tab-separated; --json: an array)")
  )

export const invitations = Command.make("invitations").pipe(
  Command.withDescription("invite people to an organization"),
  Command.withSubcommands([create, revoke, list])
)
