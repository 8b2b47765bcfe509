/**
 * `costline ingest dw`: the warehouse's account-usage exports (WAREHOUSE_METERING_HISTORY,
 * QUERY_HISTORY, optionally QUERY_ATTRIBUTION_HISTORY; CSV with a header or JSON Lines) → per-query
 * and idle usage records and insights. Validated first, all or nothing, streamed; a summary last.
 */
import { Command, Options } from "@effect/cli"
import { FileSystem } from "@effect/platform"
import { Actor, DwIngest, Errors, Ids, UsageFile } from "@costline/core"
import { Console, Effect, Either, Option, Stream } from "effect"
import { CliFailure, coreLayer, database, org } from "../Options.js"
import { ingestDemoMonth } from "../DemoMonth.js"
import { makeProgress } from "../Progress.js"

const path = (name: string, what: string) =>
  Options.file(name, { exists: "yes" }).pipe(Options.withDescription(`${what}: .csv (with a header), .jsonl or .ndjson`))

const metering = path("metering", "WAREHOUSE_METERING_HISTORY export")
const queries = path("queries", "QUERY_HISTORY export")
const attribution = path("attribution", "QUERY_ATTRIBUTION_HISTORY export (its credits win over the computed ones)").pipe(
  Options.optional
)
const window = Options.text("window").pipe(
  Options.withDescription("days before the end of the input the detectors judge, e.g. 30d (default: the organization's setting, 30d)"),
  Options.optional
)

/** `30d` or `30` → 30; fractions allowed (`0.5d`). */
export const parseWindow = (text: string): Either.Either<number, string> => {
  const match = /^\s*(\d+(?:\.\d+)?)\s*d?\s*$/i.exec(text)
  const days = match === null ? NaN : Number(match[1])
  return Number.isFinite(days) && days > 0 ? Either.right(days) : Either.left(`--window must be a number of days such as 30d, not '${text}'`)
}

const formatOf = (file: string) =>
  Option.match(UsageFile.formatOfPath(file), {
    onNone: () => Effect.fail(new CliFailure(`cannot tell the format of ${file}: name it .csv, .jsonl or .ndjson`)),
    onSome: Effect.succeed
  })

const unreadable = (file: string) => (error: { readonly message: string }) => new CliFailure(`cannot read ${file}: ${error.message}`)

const credits = (value: number) => String(Number(value.toFixed(4)))

export const summaryLines = (organization: string, s: DwIngest.IngestSummary): ReadonlyArray<string> => [
  `ingested into ${organization}: ${s.queries} queries, ${s.hours} warehouse-hours (${s.metering_rows} metering rows)`,
  `credits: ${credits(s.compute_credits)} compute = ${credits(s.query_credits)} to queries + ${credits(s.idle_credits)} idle ` +
  `(idle share ${(s.idle_share * 100).toFixed(1)}%)`,
  `usage records written: ${s.usage_records}; duplicate query rows skipped: ${s.duplicate_queries}; queries in no metered hour: ${s.unmetered_queries}`,
  `insights over ${s.window_start} .. ${s.window_end}: ${s.insights_created} created, ${s.insights_updated} updated, ` +
  `${s.insights_unchanged} unchanged, ${s.insights_retired} no longer current`
]

const dw = Command.make("dw", { org, metering, queries, attribution, window, database }, (args) =>
  Effect.gen(function*() {
    const fs = yield* FileSystem.FileSystem
    const windowDays = Option.isSome(args.window)
      ? yield* Either.mapLeft(parseWindow(args.window.value), (reason) => new CliFailure(reason))
      : undefined
    const files = [args.metering, args.queries, ...Option.toArray(args.attribution)]
    let total = 0
    for (const file of files) {
      total += yield* fs.stat(file).pipe(Effect.map((info) => Number(info.size)), Effect.mapError(unreadable(file)))
    }
    const querySize = yield* fs.stat(args.queries).pipe(Effect.map((info) => Number(info.size)), Effect.mapError(unreadable(args.queries)))
    // Validation reads every file once, then writing reads the queries again.
    const progress = makeProgress(total + querySize, process.stderr)
    let queryPasses = 0
    const source = (file: string) =>
      Effect.map(formatOf(file), (format) => ({
        format,
        open: () =>
          fs.stream(file).pipe(
            Stream.tap((chunk) => progress.advance(queryPasses > 1 ? "writing" : "validating", chunk.length)),
            Stream.decodeText(),
            Stream.mapError(unreadable(file))
          )
      }))
    const queriesSource = yield* source(args.queries)
    const sources = {
      metering: yield* source(args.metering),
      queries: {
        ...queriesSource,
        open: () => Stream.suspend(() => (queryPasses++, queriesSource.open()))
      },
      attribution: Option.isSome(args.attribution) ? yield* source(args.attribution.value) : undefined
    }
    const ingest = yield* DwIngest.DwIngest
    const summary = yield* ingest.run(Actor.Actor.system(), args.org, sources, { windowDays }).pipe(
      Effect.ensuring(progress.finish),
      // Every bad line the validation listed, one per line, before the one-line failure.
      Effect.tapError((error) =>
        error instanceof Errors.ValidationFailed
          ? Effect.forEach(error.details, (issue) => Console.error(`${issue.field}: ${issue.message}`), { discard: true })
          : Effect.void
      )
    )
    for (const line of summaryLines(args.org, summary)) yield* Console.log(line)
  }).pipe(Effect.provide(coreLayer(args.database)))).pipe(
  Command.withDescription("ingest the warehouse's account-usage exports: per-query cost, idle cost, insights (all or nothing)")
)

const demoOrg = org.pipe(Options.withDefault(Ids.OrganizationId.make("demo")))
const days = Options.integer("days").pipe(Options.withDescription("days of history to generate"), Options.withDefault(30))

/** A generated month with planted problems, for the demo: real-looking usage and insights. */
const demo = Command.make("demo", { org: demoOrg, days, database }, (args) =>
  Effect.gen(function*() {
    if (args.days < 1 || args.days > 90) return yield* Effect.fail(new CliFailure("--days must be from 1 to 90"))
    const summary = yield* ingestDemoMonth(args.org, args.days)
    for (const line of summaryLines(args.org, summary)) yield* Console.log(line)
  }).pipe(Effect.provide(coreLayer(args.database)))).pipe(
  Command.withDescription("ingest a generated month of warehouse exports with planted problems (demo data)")
)

export const ingest = Command.make("ingest").pipe(
  Command.withDescription("compute per-query cost, idle cost and insights from warehouse exports"),
  Command.withSubcommands([dw, demo])
)
