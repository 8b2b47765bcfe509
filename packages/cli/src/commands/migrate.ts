import { Command } from "@effect/cli"
import { Console, Effect, Layer } from "effect"
import { storeLayer } from "../Database.js"
import { database, resolveDatabase } from "../Options.js"

export const migrate = Command.make("migrate", { database }, ({ database }) =>
  Effect.gen(function*() {
    const db = yield* resolveDatabase(database)
    // Building the store layer applies pending migrations (safe while another process does too).
    yield* Layer.build(storeLayer(db, { migrate: true })).pipe(Effect.scoped)
    yield* Console.log(`migrations applied (${db._tag})`)
  })).pipe(Command.withDescription("apply pending database migrations"))
