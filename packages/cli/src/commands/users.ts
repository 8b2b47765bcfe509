/** `costline users add|remove`: members of an organization. */
import { Command, Options } from "@effect/cli"
import { Actor, Users } from "@costline/core"
import type { Identity } from "@costline/core"
import { Console, Effect } from "effect"
import { coreLayer, database, org } from "../Options.js"

const email = Options.text("email")

/** `--role`, one of the roles, with a default. */
export const role = (fallback: Identity.Role) =>
  Options.choice("role", ["admin", "editor", "viewer", "monitor_editor", "team_creator"]).pipe(
    Options.withDefault(fallback)
  )

const add = Command.make("add", { org, email, role: role("admin"), database }, (args) =>
  Effect.gen(function*() {
    const users = yield* Users.Users
    const user = yield* users.add(Actor.Actor.system(), args.org, { email: args.email, role: args.role })
    yield* Console.log(`added ${user.email} to ${user.organization_id} as ${args.role}`)
  }).pipe(Effect.provide(coreLayer(args.database)))).pipe(Command.withDescription("add a member with an organization-wide role"))

const remove = Command.make("remove", { org, email, database }, (args) =>
  Effect.gen(function*() {
    yield* (yield* Users.Users).remove(Actor.Actor.system(), args.org, args.email)
    yield* Console.log(`removed ${args.email} from ${args.org}: their sessions ended, their roles and memberships are gone`)
  }).pipe(Effect.provide(coreLayer(args.database)))).pipe(
    Command.withDescription("remove a member: ends their sessions, drops their direct roles and team memberships")
  )

export const users = Command.make("users").pipe(
  Command.withDescription("members of an organization"),
  Command.withSubcommands([add, remove])
)
