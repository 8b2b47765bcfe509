import { Command, Options } from "@effect/cli"
import { Actor, ApiKeys, type OrganizationId } from "@costline/core"
import { Console, Effect } from "effect"
import { coreLayer, database, org } from "../Options.js"

const name = Options.text("name").pipe(Options.withDescription("a name to recognise the key by"))
const access = Options.choice("access", ["admin", "read_write", "read_only"]).pipe(Options.withDefault("admin" as const))
const scopes = Options.text("scopes").pipe(
  Options.withDescription("comma-separated <area>:read|write, or *"),
  Options.withDefault("*")
)

const create = Command.make("create", { org, name, access, scopes, database }, (args) =>
  Effect.gen(function*() {
    const keys = yield* ApiKeys
    const { key, token } = yield* keys.create(Actor.system(), args.org as OrganizationId, {
      name: args.name,
      access: args.access,
      scopes: args.scopes.split(",").map((s) => s.trim()).filter((s) => s.length > 0)
    })
    yield* Console.log(`created API key '${key.name}' (${key.access}, scopes ${key.scopes.join(",")}) for ${key.organization_id}`)
    yield* Console.log(token)
  }).pipe(Effect.provide(coreLayer(args.database)))).pipe(Command.withDescription("create an API key; prints the token last"))

export const keys = Command.make("keys").pipe(Command.withSubcommands([create]))
