/**
 * `costline audit tail --org <id> [--state <file>]`: prints the organization's audit records as
 * JSON Lines through the API, exactly once across restarts when given a state file (see the
 * client's `AuditPoller`). The credential comes from COSTLINE_API_KEY, never from a flag: flags
 * show in process lists and shell history.
 */
import { Command, Options } from "@effect/cli"
import { FetchHttpClient } from "@effect/platform"
import { AuditPoller, AuditRecord, make as makeClient } from "@costline/http/client"
import { Duration, Effect, Option, Schema } from "effect"
import { CliFailure, org } from "../Options.js"

export const DEFAULT_URL = "http://127.0.0.1:8080"

const url = Options.text("url").pipe(
  Options.withDescription(`where the API is served (default: $COSTLINE_URL or ${DEFAULT_URL})`),
  Options.optional
)
const state = Options.text("state").pipe(
  Options.withDescription("file that keeps the position between runs (written atomically)"),
  Options.optional
)
const once = Options.boolean("once").pipe(Options.withDescription("exit once caught up instead of following"))
const interval = Options.integer("interval").pipe(
  Options.withDescription("seconds between polls while following, and between tries after a 429/503 without Retry-After"),
  Options.withDefault(5)
)
const maxResults = Options.integer("max-results").pipe(
  Options.withDescription("records per request, 1 to 500"),
  Options.withDefault(100),
  Options.filterMap((n) => (n >= 1 && n <= 500 ? Option.some(n) : Option.none()), "--max-results must be 1 to 500")
)

const apiKey = Effect.suspend(() => {
  const token = process.env.COSTLINE_API_KEY
  return token === undefined || token === ""
    ? Effect.fail(new CliFailure("set COSTLINE_API_KEY to an admin API key of the organization"))
    : Effect.succeed(token)
})

const encode = Schema.encodeSync(AuditRecord)

/** Resolves once the lines are handed to the OS, so the cursor never runs ahead of the output. */
const printLines = (records: ReadonlyArray<AuditPoller.AuditRecord>) =>
  Effect.async<void, CliFailure>((resume) => {
    const text = records.map((record) => `${JSON.stringify(encode(record))}\n`).join("")
    process.stdout.write(text, (error) =>
      resume(error ? Effect.fail(new CliFailure(`cannot write to stdout: ${error.message}`)) : Effect.void))
  })

const tail = Command.make("tail", { org, state, url, once, interval, maxResults }, (args) =>
  Effect.gen(function*() {
    const client = yield* makeClient({
      baseUrl: Option.getOrElse(args.url, () => process.env.COSTLINE_URL || DEFAULT_URL),
      token: yield* apiKey,
      tenant: args.org
    })
    const cursor = Option.match(args.state, {
      onNone: () => AuditPoller.memoryCursor(),
      onSome: AuditPoller.fileCursor
    })
    const interval = Duration.seconds(args.interval)
    const options = { pageSize: args.maxResults, interval }
    // Both modes wait out rate limits and outages; --once then stops at the first empty page.
    if (args.once) return yield* AuditPoller.catchUp(client, cursor, printLines, options).pipe(AuditPoller.waitingOutTransient(interval))
    return yield* AuditPoller.follow(client, cursor, printLines, options)
  }).pipe(Effect.provide(FetchHttpClient.layer))).pipe(
    Command.withDescription("print new audit records as JSON Lines (polls /v2/audit-logs; exactly once with --state)")
  )

export const audit = Command.make("audit").pipe(
  Command.withDescription("follow the audit log of a running server"),
  Command.withSubcommands([tail])
)
