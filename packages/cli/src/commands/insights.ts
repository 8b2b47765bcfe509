/** `costline insights import --org <id> <file.jsonl>`. */
import { Args, Command } from "@effect/cli"
import { FileSystem } from "@effect/platform"
import { Console, Effect, Option, Stream } from "effect"
import { checkLines, describeBadLines, importInsights, parsedLines } from "../InsightsFile.js"
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
    // The file is read twice, never held whole: to check every line, then to import them.
    const lines = (phase: string) =>
      parsedLines(
        fs.stream(args.file).pipe(
          Stream.tap((chunk) => progress.advance(phase, chunk.length)),
          Stream.decodeText(),
          Stream.mapError(unreadable(args.file))
        )
      )
    // Checked before the store is opened: a bad file changes nothing, wherever it points.
    const checked = yield* checkLines(lines("checking")).pipe(Effect.ensuring(progress.finish))
    if (Option.isSome(checked.bad)) {
      return yield* Effect.fail(new CliFailure(describeBadLines(checked.bad.value.listed, checked.bad.value.total)))
    }
    const summary = yield* importInsights(args.org, lines("importing"), checked.lines).pipe(
      Effect.ensuring(progress.finish),
      Effect.provide(coreLayer(args.database))
    )
    yield* Console.log(
      `imported ${checked.lines} insights into ${args.org}: ` +
        `${summary.created} created, ${summary.updated} updated, ${summary.unchanged} unchanged`
    )
  })).pipe(Command.withDescription("create or update insights from a JSON Lines file (checked first; all or nothing)"))

export const insights = Command.make("insights").pipe(
  Command.withDescription("bulk-load insights computed elsewhere"),
  Command.withSubcommands([importCommand])
)
