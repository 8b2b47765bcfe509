/**
 * The audit-log poller, a long-running process:
 *
 *   COSTLINE_API_KEY=clk_… node examples/dist/audit-poller/main.js \
 *     --url http://127.0.0.1:8080 --tenant demo --sink audit.jsonl --state audit.checkpoint.json
 *
 * Appends every audit record of the tenant to the sink, once, then every new one as it appears;
 * stop or kill it at any moment and start it again. Prints one JSON line per page written. Runs
 * until SIGINT/SIGTERM; waits out rate limits and an unavailable store, stops on other errors.
 */
import * as CostlineClient from "@costline/http/client"
import { FetchHttpClient } from "@effect/platform"
import { NodeRuntime } from "@effect/platform-node"
import { Console, Duration, Effect } from "effect"
import { parseArgs } from "node:util"
import { makeJournal } from "./Journal.js"

const { values: options } = parseArgs({
  options: {
    url: { type: "string" },
    tenant: { type: "string" },
    sink: { type: "string", default: "audit.jsonl" },
    state: { type: "string", default: "audit.checkpoint.json" },
    "max-results": { type: "string", default: "100" },
    "interval-ms": { type: "string", default: "5000" }
  }
})

const usage = (problem: string): never => {
  console.error(`${problem}\nusage: COSTLINE_API_KEY=clk_… main.js --url <base url> --tenant <organization id> ` +
    "[--sink audit.jsonl] [--state audit.checkpoint.json] [--max-results 1..500] [--interval-ms 5000]")
  process.exit(2)
}

const wholeNumber = (name: string, text: string, max: number) => {
  const value = Number(text)
  return Number.isInteger(value) && value >= 1 && value <= max ? value : usage(`--${name} must be a whole number from 1 to ${max}`)
}

const clientOptions = {
  baseUrl: options.url ?? usage("--url is required"),
  tenant: options.tenant ?? usage("--tenant is required"),
  token: process.env["COSTLINE_API_KEY"] ?? usage("COSTLINE_API_KEY is required")
}
const pageSize = wholeNumber("max-results", options["max-results"], 500)
const interval = Duration.millis(wholeNumber("interval-ms", options["interval-ms"], 86_400_000))

const journal = makeJournal({ sink: options.sink, checkpoint: options.state })
const deliver = (records: ReadonlyArray<unknown>) =>
  Effect.zipRight(journal.deliver(records), Console.log(JSON.stringify({ event: "page", records: records.length })))

const poller = Effect.flatMap(CostlineClient.make(clientOptions), (client) =>
  CostlineClient.AuditPoller.follow(client, journal.cursor, deliver, { pageSize, interval })).pipe(
    Effect.provide(FetchHttpClient.layer)
  )

NodeRuntime.runMain(poller)
