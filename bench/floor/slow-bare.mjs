// @ts-check
/**
 * What a server slower than its client pays to write: a bare node:http server answering every
 * request with the same ~1 KB JSON after `FLOOR_BURN_US` µs of busy work (default 0), writing
 * each answer at once or, with `FLOOR_TURN_WRITES=1`, at the end of the event loop's turn with
 * the turn's others (as costline's `routing/TurnWrites.ts` does). Found in session 17: made as
 * slow as costline (120 µs), the bare server's `end()` cost ~30 µs of CPU instead of ~2.5 µs,
 * waking its load generator on every write; written at the turn's end, 163 → 141 µs a request.
 *
 *   npx vite-node bench/served-ab.ts -- --connections 64 --bursts 8 \
 *     --side '{"costline":"bench/floor/slow-bare.mjs","env":{"FLOOR_BURN_US":"120"}}' \
 *     --side '{"costline":"bench/floor/slow-bare.mjs","env":{"FLOOR_BURN_US":"120","FLOOR_TURN_WRITES":"1"}}'
 *
 * Takes `serve --database <url> --port <n>` as costline does (the database is not opened).
 */
import { randomUUID } from "node:crypto"
import { createServer } from "node:http"
import { parseArgs } from "node:util"

const { values } = parseArgs({ allowPositionals: true, options: { database: { type: "string" }, port: { type: "string", default: "0" } } })
const burnNs = BigInt(Math.round(Number(process.env.FLOOR_BURN_US ?? "0") * 1000))
const atTurnEnd = process.env.FLOOR_TURN_WRITES === "1"
const body = JSON.stringify({
  id: "847b7ec5-af6d-40e2-aafa-4f67d8cb0919",
  title: "Query spills to remote storage",
  description: "10 executions spilled 50 GiB to remote storage; filter and aggregate before joining, or run on a larger warehouse.".repeat(6)
})

/** @type {Array<() => void>} */
let queued = []
const flush = () => {
  const writes = queued
  queued = []
  for (const write of writes) write()
}

const server = createServer((_request, response) => {
  const until = process.hrtime.bigint() + burnNs
  while (process.hrtime.bigint() < until);
  const write = () => response.writeHead(200, { "content-type": "application/json", "x-request-id": randomUUID() }).end(Buffer.from(body))
  if (!atTurnEnd) return write()
  queued.push(write)
  if (queued.length === 1) setImmediate(flush)
})
server.listen(Number(values.port), "127.0.0.1", () => {
  const address = server.address()
  process.stdout.write(`slow-bare listening on http://127.0.0.1:${typeof address === "object" && address !== null ? address.port : values.port}\n`)
})
process.on("SIGTERM", () => server.close(() => process.exit(0)))
