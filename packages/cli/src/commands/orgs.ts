/**
 * `costline orgs create|list`: organizations (tenants) for operators. `create` makes an empty
 * organization (no users, keys or insights: `seed` is the demo) and prints its id last.
 */
import { Command, Options } from "@effect/cli"
import { Organizations } from "@costline/core"
import { Console, DateTime, Effect, Option } from "effect"
import { coreLayer, database, json, org } from "../Options.js"
import { table } from "../Table.js"

const name = Options.text("name").pipe(
  Options.withDescription("a display name (default: the id)"),
  Options.optional
)

const create = Command.make("create", { org, name, database }, (args) =>
  Effect.gen(function*() {
    const organization = yield* (yield* Organizations.Organizations).create({
      id: args.org,
      name: Option.getOrElse(args.name, () => args.org)
    })
    yield* Console.log(`created organization '${organization.name}'`)
    yield* Console.log(organization.id)
  }).pipe(Effect.provide(coreLayer(args.database, { create: true })))).pipe(
    Command.withDescription("create an empty organization; prints its id last")
  )

const list = Command.make("list", { json, database }, (args) =>
  Effect.gen(function*() {
    const organizations = yield* (yield* Organizations.Organizations).list
    const rows = organizations.map((organization) => ({
      id: organization.id,
      name: organization.name,
      created_at: DateTime.formatIso(organization.created_at)
    }))
    yield* Console.log(args.json ? JSON.stringify(rows) : table(rows, ["id", "name", "created_at"]))
  }).pipe(Effect.provide(coreLayer(args.database)))).pipe(Command.withDescription("list organizations"))

export const orgs = Command.make("orgs").pipe(
  Command.withDescription("create and list organizations"),
  Command.withSubcommands([create, list])
)
