import { Command, Options } from "@effect/cli"
import { Auth } from "@costline/core"
import { Metrics, serve as serveHttp, Tracing } from "@costline/http"
import { Console, Effect, Layer, Option } from "effect"
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs"
import { dirname, join } from "node:path"
import { describeDatabase, storeLayer } from "../Database.js"
import { coreLayer, database, resolveDatabase } from "../Options.js"
import { checkedSecrets } from "../SecretKeys.js"
import { metricsServer } from "../MetricsServer.js"
import { edgeOptions, environmentPort, observabilityOptions, tracingOptions } from "../ServeConfig.js"

const port = Options.integer("port").pipe(
  Options.withDescription("default: COSTLINE_PORT, else PORT, else 8080"),
  Options.optional
)
const host = Options.text("host").pipe(
  Options.withDescription("address to listen on; 0.0.0.0 for every interface (behind a proxy or in a container)"),
  Options.withDefault("127.0.0.1")
)
const demo = Options.boolean("demo").pipe(
  Options.withDescription("ensure organization 'demo' exists and print a working API key and curl line")
)

const DEMO_ORG = "demo"
/**
 * Local, git-ignored: lets `npm start` print the same working key on every start. Keys are kept per
 * database, and a kept key is printed only once this database has accepted it: a banner never
 * shows a key of another database (or one revoked since).
 */
const DEMO_KEY_FILE = join(".costline", "demo-key.json")

const keptKeys = (): Record<string, string> => {
  if (!existsSync(DEMO_KEY_FILE)) return {}
  try {
    const kept = JSON.parse(readFileSync(DEMO_KEY_FILE, "utf8")) as { keys?: Record<string, string> }
    return typeof kept.keys === "object" && kept.keys !== null ? kept.keys : {}
  } catch {
    return {}
  }
}

const demoKey = (database: string) =>
  Effect.gen(function*() {
    const kept = keptKeys()[database]
    if (kept !== undefined) {
      const works = yield* (yield* Auth.Auth).authenticate(`Bearer ${kept}`).pipe(
        Effect.map((principal) => principal.organizationId === DEMO_ORG),
        Effect.catchTag("Unauthorized", () => Effect.succeed(false))
      )
      if (works) return kept
    }
    // The demo data (its insights are built when their module loads) only for `--demo`.
    const { seedOrganization } = yield* Effect.promise(() => import("../Seed.js"))
    const { created, organizationId, token } = yield* seedOrganization(DEMO_ORG, "npm-start")
    // A new demo organization gets a generated month of warehouse usage (a few seconds, once):
    // insights, usage and idle cost computed as from real exports, not only the seeded examples.
    if (created) {
      yield* Console.log("loading a generated month of warehouse usage into organization 'demo' (once)…")
      const { ingestDemoMonth } = yield* Effect.promise(() => import("../DemoMonth.js"))
      const summary = yield* ingestDemoMonth(organizationId)
      yield* Console.log(
        `  ${summary.queries} queries over ${summary.hours} warehouse-hours, idle share ${(summary.idle_share * 100).toFixed(1)}%, ` +
          `${summary.insights_created} insights computed (costline ingest demo loads it again)`
      )
    }
    mkdirSync(dirname(DEMO_KEY_FILE), { recursive: true })
    const keys = { ...keptKeys(), [database]: token }
    writeFileSync(DEMO_KEY_FILE, JSON.stringify({ organization: DEMO_ORG, keys }, null, 2) + "\n", { mode: 0o600 })
    return token
  })

const banner = (url: string, token: string) =>
  [
    `costline listening on ${url}`,
    `  organization (x-tenant-id): ${DEMO_ORG}`,
    `  admin API key:              ${token}`,
    `  try: curl -s -H 'Authorization: Bearer ${token}' -H 'x-tenant-id: ${DEMO_ORG}' ${url}/v2/audit-logs`
  ].join("\n")

export const serve = Command.make("serve", { port, host, database, demo }, (args) =>
  Effect.gen(function*() {
    const db = yield* resolveDatabase(args.database)
    // Settings first: one that does not parse stops here, before any store is opened.
    const listenPort = Option.isSome(args.port) ? args.port.value : yield* environmentPort
    const url = `http://${args.host}:${listenPort}`
    const edge = yield* edgeOptions
    const observability = yield* observabilityOptions
    const otlp = yield* tracingOptions
    // Opened (and migrated) once, for the key check and then for serving; closed when the
    // command's scope closes, after the server has drained.
    const store = yield* Layer.memoize(storeLayer(db))
    // Before anything listens: a wrong master key stops here, with one line.
    const secrets = yield* checkedSecrets(db, store)
    const token = args.demo ? yield* demoKey(describeDatabase(db)).pipe(Effect.provide(coreLayer(args.database, { create: true }))) : undefined
    const metrics = observability.metrics._tag === "off" ? undefined : Metrics.make()
    const server = serveHttp({
      ...edge,
      port: listenPort,
      host: args.host,
      store,
      secrets,
      metrics,
      exposeMetrics: observability.metrics._tag === "api",
      logLevel: observability.logLevel,
      tracing: Option.isSome(otlp),
      // The docs page's "Try it out" then works as printed below, with the first click.
      ...(args.demo ? { docsTenant: DEMO_ORG } : {})
    }).pipe(
      Layer.merge(
        metrics !== undefined && observability.metrics._tag === "port"
          ? metricsServer(metrics, args.host, observability.metrics.port)
          : Layer.empty
      ),
      // Built first, released last: spans of the drained requests are still flushed.
      Layer.provide(Option.match(otlp, { onNone: () => Layer.empty, onSome: Tracing.otlp })),
      // Built means bound: only now is the API reachable.
      Layer.tap(() => Console.log(token === undefined ? `costline listening on ${url}` : banner(url, token)))
    )
    // Runs until SIGINT/SIGTERM; the scope then drains in-flight requests and closes the pool.
    yield* Layer.launch(server)
  }).pipe(Effect.scoped)).pipe(Command.withDescription("serve the v2 and v1 APIs"))
