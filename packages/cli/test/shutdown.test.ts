/**
 * Graceful shutdown of `costline serve`: SIGTERM in the middle of a burst of writes. Requests the
 * server had taken in are finished before it exits, and every write it acknowledged (201) is in
 * the database afterwards, with its audit record.
 */
import { AuditLog, Core, Teams } from "@costline/core"
import type { Ids } from "@costline/core"
import { SqliteStore } from "@costline/store-sqlite"
import { Effect, Layer } from "effect"
import { join } from "node:path"
import { expect, it } from "vitest"
import { freePort, holdRequest, untilRefused } from "./network.js"
import { costline, lastLine, scratchDir, startServer } from "./support.js"

const ORG = "acme" as Ids.OrganizationId

it("SIGTERM during a burst: in-flight requests finish, and no acknowledged write is lost", { timeout: 120_000 }, async () => {
  const dir = scratchDir()
  const key = lastLine((await costline(dir, "seed", "--org", ORG)).stdout)
  const port = await freePort()
  const { child } = await startServer(dir, "--port", String(port))
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)))
  const headers = { authorization: `Bearer ${key}`, "x-tenant-id": ORG, "content-type": "application/json" }

  // One request is certainly in flight when the signal comes: its body is held back until after.
  const held = await holdRequest(port, [
    "POST /v2/teams HTTP/1.1",
    "host: 127.0.0.1",
    `authorization: ${headers.authorization}`,
    `x-tenant-id: ${ORG}`,
    "content-type: application/json"
  ], JSON.stringify({ name: "Held" }))

  const burst = Array.from({ length: 40 }, (_, i) =>
    fetch(`http://127.0.0.1:${port}/v2/teams`, { method: "POST", headers, body: JSON.stringify({ name: `Burst ${i}` }) })
      .then(async (response) => ({ status: response.status, body: (await response.json()) as { id?: string } }))
      .catch(() => undefined))
  // The signal arrives while the burst is being served.
  await Promise.race(burst)
  child.kill("SIGTERM")
  // The held request completes only once the server has stopped accepting connections.
  await untilRefused(port)
  const heldAnswer = await held.finish()
  const answers = await Promise.all(burst)
  expect(await exited).toBe(0)

  expect(heldAnswer).toMatch(/^HTTP\/1\.1 201 /)
  const acknowledged = [
    JSON.parse(heldAnswer.slice(heldAnswer.indexOf("\r\n\r\n") + 4)).id as string,
    ...answers.flatMap((answer) => answer?.status === 201 ? [answer.body.id!] : [])
  ]
  // Whatever was not acknowledged failed cleanly: refused, or never answered.
  expect(answers.every((answer) => answer === undefined || answer.status === 201)).toBe(true)

  const store = Core.layer.pipe(Layer.provideMerge(SqliteStore.layer({ filename: join(dir, ".costline", "costline.db") })))
  const { audited, teams } = await Effect.gen(function*() {
    const teams = yield* Teams.Teams
    const audit = yield* AuditLog.AuditLog
    const page = yield* audit.export(ORG, { filters: { resource_in: ["teams"] }, order: "asc", maxResults: 500, pageToken: undefined })
    return {
      teams: yield* Effect.forEach(acknowledged, (id) => teams.get(ORG, id as Ids.TeamId)),
      audited: page.items.map((record) => record.record_id)
    }
  }).pipe(Effect.provide(store), Effect.runPromise)
  expect(teams.map((team) => team.id)).toEqual(acknowledged)
  expect(audited).toEqual(expect.arrayContaining(acknowledged))
})
