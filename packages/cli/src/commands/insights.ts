/** `costline insights import --org <id> <file.jsonl>`. */
import { Args, Command } from "@effect/cli"
import { FileSystem } from "@effect/platform"
import { Console, Effect, Stream } from "effect"
import { describeBadLines, importInsights, parsedLines } from "../InsightsFile.js"
import { CliFailure, coreLayer, database, org } from "../Options.js"
import { makeProgress } from "../Progress.js"

const file = Args.text({ name: "file.jsonl" }).pipe(
  Args.withDescription("one insight per line: insight_type, resource_type, resource_id, title, description, severity, ...")
)

const unreadable = (path: string) => (error: { readonly message: string }) => new CliFailure(`cannot read ${path}: ${error.message}`)

const importCommand = Command.make("import", { org, file, database }, (args) =>
  Effect.gen(function*() {
    const fs = yield* FileSystem.FileSystem
    const size = yield* fs.stat(args.file).pipe(Effect.map((info) => Number(info.size)), Effect.mapError(unreadable(args.file)))
    const progress = makeProgress(size, process.stderr)
    // Read once, never held whole: each line is checked and staged as it is read.
    const lines = parsedLines(
      fs.stream(args.file).pipe(
        Stream.tap((chunk) => progress.advance("importing", chunk.length)),
        Stream.decodeText(),
        Stream.mapError(unreadable(args.file))
      )
    )
    const imported = yield* importInsights(args.org, lines).pipe(
      Effect.ensuring(progress.finish),
      Effect.catchTag("BadLines", (bad) => Effect.fail(new CliFailure(describeBadLines(bad.listed, bad.total)))),
      Effect.provide(coreLayer(args.database))
    )
    yield* Console.log(
      `imported ${imported.lines} insights into ${args.org}: ` +
        `${imported.summary.created} created, ${imported.summary.updated} updated, ${imported.summary.unchanged} unchanged`
    )
  })).pipe(Command.withDescription("create or update insights from a JSON Lines file (all or nothing: a bad line imports nothing)"))

export const insights = Command.make("insights").pipe(
  Command.withDescription("bulk-load insights computed elsewhere"),
  Command.withSubcommands([importCommand])
)
