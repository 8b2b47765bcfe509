import { Command, Options } from "@effect/cli"
import { Actor, Core, DwAccount, DwAccounts } from "@costline/core"
import { Console, Effect, Layer, ParseResult, Schema } from "effect"
import { storeLayer } from "../Database.js"
import { CliFailure, database, org, resolveDatabase } from "../Options.js"
import { checkedSecrets } from "../SecretKeys.js"

const name = Options.text("name").pipe(Options.withDescription("a name to recognise the warehouse account by"))

const decodeCreate = (input: { readonly name: string }) =>
  Schema.decodeUnknown(DwAccount.CreateDwAccount)(input).pipe(
    Effect.mapError((error) => {
      const [issue] = ParseResult.ArrayFormatter.formatErrorSync(error)
      return new CliFailure(`--${String(issue?.path[0] ?? "name")}: ${issue?.message ?? "invalid"}`)
    })
  )

/** Core's services with DwAccounts, over the store the `--database` flag names. */
const accountsLayer = (flag: Parameters<typeof resolveDatabase>[0]) =>
  Layer.unwrapEffect(
    Effect.gen(function*() {
      const db = yield* resolveDatabase(flag)
      const secrets = yield* checkedSecrets(db)
      return Core.layerWithSecrets.pipe(Layer.provideMerge(storeLayer(db)), Layer.provide(secrets))
    })
  )

const create = Command.make("create", { org, name, database }, (args) =>
  Effect.gen(function*() {
    const accounts = yield* DwAccounts.DwAccounts
    const account = yield* accounts.create(Actor.Actor.system(), args.org, yield* decodeCreate({ name: args.name }))
    yield* Console.log(`created warehouse account '${account.name}' for ${account.organization_id}`)
    yield* Console.log(account.id)
  }).pipe(Effect.provide(accountsLayer(args.database)))).pipe(
    Command.withDescription("create a warehouse account; prints its id last (set its key with PATCH /v2/dw-accounts/{id})")
  )

export const dwAccounts = Command.make("dw-accounts").pipe(
  Command.withDescription("warehouse accounts"),
  Command.withSubcommands([create])
)
