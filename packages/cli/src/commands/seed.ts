import { Command, Options } from "@effect/cli"
import { Ids } from "@costline/core"
import { Console, Effect } from "effect"
import { coreLayer, database, org as orgOption } from "../Options.js"
import { demoAdminEmail, seedOrganization } from "../Seed.js"

const org = orgOption.pipe(Options.withDefault(Ids.OrganizationId.make("demo")))

export const seed = Command.make("seed", { org, database }, (args) =>
  Effect.gen(function*() {
    const result = yield* seedOrganization(args.org)
    yield* Console.log(
      `${result.created ? "created" : "kept"} organization ${result.organizationId} with admin ${demoAdminEmail(args.org)} ` +
        `and ${result.insights} demo insights; new admin API key:`
    )
    yield* Console.log(result.token)
  }).pipe(Effect.provide(coreLayer(args.database, { create: true })))).pipe(Command.withDescription("create demo data; prints a new admin API key last"))
