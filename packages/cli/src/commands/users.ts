import { Command, Options } from "@effect/cli"
import { Actor, type OrganizationId, Users } from "@costline/core"
import { Console, Effect } from "effect"
import { coreLayer, database, org } from "../Options.js"

const email = Options.text("email")
const role = Options.choice("role", ["admin", "editor", "viewer", "monitor_editor", "team_creator"]).pipe(
  Options.withDefault("admin" as const)
)

const add = Command.make("add", { org, email, role, database }, (args) =>
  Effect.gen(function*() {
    const users = yield* Users
    const user = yield* users.add(Actor.system(), args.org as OrganizationId, { email: args.email, role: args.role })
    yield* Console.log(`added ${user.email} to ${user.organization_id} as ${args.role}`)
  }).pipe(Effect.provide(coreLayer(args.database)))).pipe(Command.withDescription("add a member with an organization-wide role"))

export const users = Command.make("users").pipe(Command.withSubcommands([add]))
