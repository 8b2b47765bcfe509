import { Command, Options } from "@effect/cli"
import { Organizations, type OrganizationId } from "@costline/core"
import { serve as serveHttp } from "@costline/http"
import { Console, Effect, Layer, Option } from "effect"
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs"
import { dirname, join } from "node:path"
import { storeLayer } from "../Database.js"
import { coreLayer, database, resolveDatabase } from "../Options.js"
import { checkedSecrets } from "../SecretKeys.js"
import { seedOrganization } from "../Seed.js"
import { edgeOptions, environmentPort } from "../ServeConfig.js"

const port = Options.integer("port").pipe(
  Options.withDescription("default: COSTLINE_PORT, else PORT, else 8080"),
  Options.optional
)
const host = Options.text("host").pipe(Options.withDefault("127.0.0.1"))
const demo = Options.boolean("demo").pipe(
  Options.withDescription("ensure organization 'demo' exists and print a working API key and curl line")
)

const DEMO_ORG = "demo"
/** Local, git-ignored: lets `npm start` print the same working key on every start. */
const DEMO_KEY_FILE = join(".costline", "demo-key.json")

const demoKey = Effect.gen(function*() {
  const organizations = yield* Organizations
  const exists = yield* organizations.get(DEMO_ORG as OrganizationId).pipe(
    Effect.as(true),
    Effect.catchTag("NotFound", () => Effect.succeed(false))
  )
  if (exists && existsSync(DEMO_KEY_FILE)) return JSON.parse(readFileSync(DEMO_KEY_FILE, "utf8")).api_key as string
  const { token } = yield* seedOrganization(DEMO_ORG, "npm-start")
  mkdirSync(dirname(DEMO_KEY_FILE), { recursive: true })
  writeFileSync(DEMO_KEY_FILE, JSON.stringify({ organization: DEMO_ORG, api_key: token }) + "\n", { mode: 0o600 })
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
    // Before anything listens: a wrong master key stops here, with one line.
    const secrets = yield* checkedSecrets(db)
    const token = args.demo ? yield* demoKey.pipe(Effect.provide(coreLayer(args.database))) : undefined
    const listenPort = Option.isSome(args.port) ? args.port.value : yield* environmentPort
    const url = `http://${args.host}:${listenPort}`
    const edge = yield* edgeOptions
    const server = serveHttp({ ...edge, port: listenPort, host: args.host, store: storeLayer(db), secrets }).pipe(
      // Built means bound: only now is the API reachable.
      Layer.tap(() => Console.log(token === undefined ? `costline listening on ${url}` : banner(url, token)))
    )
    // Runs until SIGINT/SIGTERM; the scope then drains in-flight requests and closes the pool.
    yield* Layer.launch(server)
  })).pipe(Command.withDescription("serve the v2 and v1 APIs"))
