/**
 * `costline usage import` (a JSON Lines or CSV usage file, validated first, all or nothing) and
 * `costline usage report` (one month of a set: attribution and budget status per group, raising
 * a `budget_exceeded` insight for each group over budget).
 */
import { Args, Command, Options } from "@effect/cli"
import { FileSystem } from "@effect/platform"
import { Actor, BudgetAlerts, Usage, UsageFile, UsageImport, UsageMonth } from "@costline/core"
import type { Attribution } from "@costline/core"
import { Console, Effect, Option, Stream } from "effect"
import { CliFailure, coreLayer, database, json, org, schemaOption } from "../Options.js"
import { makeProgress } from "../Progress.js"

const file = Args.text({ name: "file" }).pipe(Args.withDescription("usage rows: .jsonl / .ndjson (JSON Lines) or .csv with a header"))
const format = Options.choice("format", UsageFile.UsageFileFormat.literals).pipe(
  Options.withDescription("the file's format (default: from its extension)"),
  Options.optional
)

const formatOf = (path: string, flag: Option.Option<UsageFile.UsageFileFormat>) =>
  Option.match(Option.orElse(flag, () => UsageFile.formatOfPath(path)), {
    onNone: () => Effect.fail(new CliFailure(`cannot tell the format of ${path}: name it .jsonl, .ndjson or .csv, or pass --format`)),
    onSome: Effect.succeed
  })

const unreadable = (path: string) => (error: { readonly message: string }) => new CliFailure(`cannot read ${path}: ${error.message}`)

const importCommand = Command.make("import", { org, file, format, database }, (args) =>
  Effect.gen(function*() {
    const fs = yield* FileSystem.FileSystem
    const usageFormat = yield* formatOf(args.file, args.format)
    const size = yield* fs.stat(args.file).pipe(Effect.map((info) => Number(info.size)), Effect.mapError(unreadable(args.file)))
    const progress = makeProgress(size, process.stderr)
    // The import reads the file twice: to validate every row, then to insert them.
    let passes = 0
    const open = () => {
      const phase = ++passes === 1 ? "validating" : "importing"
      return fs.stream(args.file).pipe(
        Stream.tap((chunk) => progress.advance(phase, chunk.length)),
        Stream.decodeText(),
        Stream.mapError(unreadable(args.file))
      )
    }
    const usage = yield* UsageImport.UsageImport
    const summary = yield* usage.run(args.org, { format: usageFormat, open }).pipe(
      Effect.ensuring(progress.finish)
    )
    yield* Console.log(`imported ${summary.rows} usage ${summary.rows === 1 ? "row" : "rows"} into ${args.org}`)
  }).pipe(Effect.provide(coreLayer(args.database)))).pipe(
    Command.withDescription("import usage rows (validated first; all or nothing)")
  )

const set = schemaOption("set", Usage.UsageGroupSetId, "a usage group set id (a UUID)").pipe(
  Options.withDescription("usage group set id")
)
const month = schemaOption("month", UsageMonth.Month, "a month as YYYY-MM").pipe(Options.withDescription("YYYY-MM (UTC)"))

const number = (value: number | null) => (value === null ? "-" : String(Number(value.toFixed(4))))

/** The report as aligned columns: one row per group in precedence order, then unattributed usage. */
export const reportTable = (report: Attribution.AttributionReport): string => {
  const rows = [
    ["order", "group", "records", "spent", "budget", "remaining", "status"],
    ...report.groups.map((g) => [
      String(g.group.order),
      g.group.name,
      String(g.records),
      number(g.spent),
      number(g.budget),
      number(g.remaining),
      g.status
    ]),
    ["", "(unattributed)", String(report.unattributed.records), number(report.unattributed.credits), "", "", ""]
  ]
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)))
  return rows.map((row) => row.map((cell, column) => cell.padEnd(widths[column]!)).join("  ").trimEnd()).join("\n")
}

/** The report as one JSON object: credits unrounded (rounding is for the table only). */
export const reportJson = (report: Attribution.AttributionReport, overBudget: number, alertsChanged: number) => ({
  set: { id: report.set.id, name: report.set.name },
  month: report.month,
  groups: report.groups.map((g) => ({
    order: g.group.order,
    id: g.group.id,
    name: g.group.name,
    records: g.records,
    spent: g.spent,
    budget: g.budget,
    remaining: g.remaining,
    status: g.status
  })),
  unattributed: report.unattributed,
  over_budget: overBudget,
  budget_insights_changed: alertsChanged
})

const reportCommand = Command.make("report", { org, set, month, json, database }, (args) =>
  Effect.gen(function*() {
    const alerts = yield* BudgetAlerts.BudgetAlerts
    const { alerts: raised, report } = yield* alerts.raise(Actor.Actor.system(), args.org, args.set, args.month)
    const changed = raised.filter((alert) => alert.result._tag !== "Unchanged").length
    if (args.json) return yield* Console.log(JSON.stringify(reportJson(report, raised.length, changed)))
    yield* Console.log(`usage of '${report.set.name}' (${report.set.id}) in ${report.month}, in credits`)
    yield* Console.log(reportTable(report))
    yield* Console.log(
      `${raised.length} group(s) over budget: ${changed} budget_exceeded insight(s) created or updated`
    )
  }).pipe(Effect.provide(coreLayer(args.database)))).pipe(
    Command.withDescription("attribute a month's usage to a set's groups; raise budget_exceeded insights")
  )

export const usage = Command.make("usage").pipe(
  Command.withDescription("usage records and budgets"),
  Command.withSubcommands([importCommand, reportCommand])
)
