/**
 * The poller as it runs in production: its own process, polling a real server over HTTP, killed
 * with SIGKILL (no chance to tidy up) and started again mid-stream while records keep being
 * written. The sink must end up with every record exactly once, in the export's order.
 *
 * The child runs the compiled example (examples/dist), built here from the sources first.
 */
import { Core } from "@costline/core"
import { drainExport, ids, recordChange } from "@costline/store-contract"
import { makeHandler } from "@costline/http"
import { Effect, Layer, ManagedRuntime } from "effect"
import { type ChildProcess, execFileSync, spawn } from "node:child_process"
import { existsSync, readFileSync } from "node:fs"
import { createServer } from "node:http"
import { once } from "node:events"
import { createInterface } from "node:readline"
import { fileURLToPath } from "node:url"
import { afterAll, beforeAll, expect, it } from "vitest"
import { useListening, useSqliteStore, useTempDirectory, useTenant } from "../../test-support/examples.js"

const examples = fileURLToPath(new URL("..", import.meta.url))
const pollerMain = fileURLToPath(new URL("../dist/audit-poller/main.js", import.meta.url))
const tsc = fileURLToPath(new URL("../../node_modules/typescript/bin/tsc", import.meta.url))

const store = useSqliteStore()
const tenant = useTenant(store)
const costline = makeHandler({ store, rateLimit: false })
const origin = useListening(createServer(costline))
const writer = ManagedRuntime.make(Core.layer.pipe(Layer.provideMerge(store)))
const file = useTempDirectory()
const files = { sink: file("audit.jsonl"), state: file("audit.checkpoint.json") }

beforeAll(() => {
  execFileSync(process.execPath, [tsc, "-p", examples])
})

afterAll(async () => {
  await writer.dispose()
  await costline.dispose()
})

let written = 0
const writeRecords = (count: number) =>
  writer.runPromise(Effect.forEach(
    Array.from({ length: count }, () => `dashboard-${(written += 1)}`),
    (id) => recordChange(tenant().organizationId, id),
    { discard: true }
  ))

/** A running poller, and a way to wait for what it reports. */
const startPoller = () => {
  const child: ChildProcess = spawn(process.execPath, [
    pollerMain,
    ...["--url", origin(), "--tenant", tenant().organizationId, "--sink", files.sink, "--state", files.state],
    ...["--max-results", "4", "--interval-ms", "20"]
  ], { env: { ...process.env, COSTLINE_API_KEY: tenant().apiKey }, stdio: ["ignore", "pipe", "pipe"] })
  const stderr: Array<string> = []
  child.stderr!.on("data", (chunk) => stderr.push(String(chunk)))
  // Each line the poller prints reports a page written to the sink.
  const waiting: Array<() => void> = []
  createInterface({ input: child.stdout! }).on("line", () => waiting.splice(0).forEach((resolve) => resolve()))
  const exited = once(child, "exit")
  return {
    /** Resolves when the poller next reports a page written. */
    nextPage: () =>
      Promise.race([
        new Promise<void>((resolve) => waiting.push(resolve)),
        exited.then(() => Promise.reject(new Error(`the poller exited: ${stderr.join("")}`)))
      ]),
    kill: async (signal: NodeJS.Signals) => {
      child.kill(signal)
      await exited
    }
  }
}

const sinkIds = () =>
  existsSync(files.sink)
    ? readFileSync(files.sink, "utf8").split("\n").filter((line) => line !== "").map((line) => (JSON.parse(line) as { id: string }).id)
    : []

it("delivers every record exactly once across kills and restarts", async () => {
  await writeRecords(30)
  const first = startPoller()
  await first.nextPage()
  await first.nextPage()
  await first.kill("SIGKILL")

  await writeRecords(10)
  const second = startPoller()
  await second.nextPage()
  await second.kill("SIGKILL")

  const third = startPoller()
  await writeRecords(20)
  const expected = ids((await writer.runPromise(drainExport(tenant().organizationId))).records)
  // A page delivered twice after a kill would be among the first lines, so once the sink has as
  // many lines as the export has records, they are the export's records or the test fails.
  while (sinkIds().length < expected.length) await third.nextPage()
  await third.kill("SIGTERM")

  // The tenant's API key, then every record written here.
  expect(expected.length).toBe(1 + written)
  expect(sinkIds()).toEqual(expected)
})
