/** Options shared by several commands, and how a command gets the core services. */
import { Options } from "@effect/cli"
import { Core, Ids } from "@costline/core"
import { Effect, Either, Layer, Option, Schema } from "effect"
import { existsSync } from "node:fs"
import { describeDatabase, parseDatabaseUrl, resolveDatabaseUrl, storeLayer } from "./Database.js"

export const database = Options.text("database").pipe(
  Options.withDescription("sqlite:<path>, sqlite::memory: or postgres://… (default: $COSTLINE_DATABASE_URL or sqlite:.costline/costline.db)"),
  Options.optional
)

/**
 * A text option decoded by a schema; a value that does not decode is a usage error of one plain
 * line (`--set must be a usage group set id (a UUID)`), not the schema's error tree.
 */
export const schemaOption = <A>(name: string, schema: Schema.Schema<A, string>, expected: string) =>
  Options.text(name).pipe(Options.filterMap(Schema.decodeUnknownOption(schema), `--${name} must be ${expected}`))

/** `--org`, shared by the commands that act on one organization. */
export const org = schemaOption("org", Ids.OrganizationId, "an organization id (1 to 128 characters)").pipe(
  Options.withDescription("organization id")
)

export const json = Options.boolean("json").pipe(Options.withDescription("print JSON instead of a table"))

/** A one-line reason for exit code 1. */
export class CliFailure extends Error {}

export const resolveDatabase = (flag: Option.Option<string>) =>
  Either.match(parseDatabaseUrl(resolveDatabaseUrl(Option.getOrUndefined(flag))), {
    onLeft: (reason) => Effect.fail(new CliFailure(reason)),
    onRight: Effect.succeed
  })

/**
 * Core services over the store the `--database` flag names (migrated on open). Only the commands
 * that set up an installation (`serve`, `seed`, `orgs create`; `migrate` opens the store itself)
 * pass `create`: any other command refuses a SQLite file that does not exist, so one run from the
 * wrong directory never creates, and then reports on, an empty database.
 */
export const coreLayer = (flag: Option.Option<string>, options: { readonly create?: boolean } = {}) =>
  Layer.unwrapEffect(
    Effect.flatMap(resolveDatabase(flag), (db) =>
      db._tag === "sqlite" && db.filename !== ":memory:" && options.create !== true && !existsSync(db.filename)
        ? Effect.fail(
          new CliFailure(
            `no database at ${describeDatabase(db)}: run costline migrate first, or pass --database / COSTLINE_DATABASE_URL`
          )
        )
        : Effect.succeed(Core.layer.pipe(Layer.provideMerge(storeLayer(db)))))
  )
