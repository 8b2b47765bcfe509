/** `costline insights import --org <id> <file.jsonl>`. */
import { Args, Command } from "@effect/cli"
import { FileSystem } from "@effect/platform"
import type { OrganizationId } from "@costline/core"
import { Console, Effect, Either } from "effect"
import { describeBadLines, importInsights, parseInsightLines } from "../InsightsFile.js"
import { CliFailure, coreLayer, database, org } from "../Options.js"

const file = Args.text({ name: "file.jsonl" }).pipe(
  Args.withDescription("one insight per line: insight_type, resource_type, resource_id, title, description, severity, ...")
)

const importCommand = Command.make("import", { org, file, database }, (args) =>
  Effect.gen(function*() {
    const text = yield* (yield* FileSystem.FileSystem).readFileString(args.file).pipe(
      Effect.mapError((error) => new CliFailure(`cannot read ${args.file}: ${error.message}`))
    )
    // Checked before the store is opened: a bad file changes nothing, wherever it points.
    const upserts = yield* Either.mapLeft(parseInsightLines(text), (bad) => new CliFailure(describeBadLines(bad)))
    const summary = yield* importInsights(args.org as OrganizationId, upserts).pipe(Effect.provide(coreLayer(args.database)))
    yield* Console.log(
      `imported ${upserts.length} insights into ${args.org}: ` +
        `${summary.created} created, ${summary.updated} updated, ${summary.unchanged} unchanged`
    )
  })).pipe(Command.withDescription("create or update insights from a JSON Lines file (checked first; all or nothing)"))

export const insights = Command.make("insights").pipe(Command.withSubcommands([importCommand]))
