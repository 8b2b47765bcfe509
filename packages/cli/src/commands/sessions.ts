import { Command, Options } from "@effect/cli"
import { Actor, Sessions } from "@costline/core"
import { Console, DateTime, Effect } from "effect"
import { coreLayer, database, org } from "../Options.js"

const email = Options.text("email").pipe(Options.withDescription("an existing member of the organization"))

const create = Command.make("create", { org, email, database }, (args) =>
  Effect.gen(function*() {
    const sessions = yield* Sessions.Sessions
    const { session, token } = yield* sessions.create(args.org, args.email)
    yield* Console.log(`session for ${args.email} expires ${DateTime.formatIso(session.expires_at)}`)
    yield* Console.log(token)
  }).pipe(Effect.provide(coreLayer(args.database)))).pipe(Command.withDescription("log a user in; prints the session token last"))

const revoke = Command.make("revoke", { org, email, database }, (args) =>
  Effect.gen(function*() {
    const ended = yield* (yield* Sessions.Sessions).revokeForUser(Actor.Actor.system(), args.org, args.email)
    yield* Console.log(`ended ${ended} session${ended === 1 ? "" : "s"} of ${args.email}`)
  }).pipe(Effect.provide(coreLayer(args.database)))).pipe(
    Command.withDescription("end every live session of a member (each audited as a logout)")
  )

export const sessions = Command.make("sessions").pipe(
  Command.withDescription("log users in and out"),
  Command.withSubcommands([create, revoke])
)
