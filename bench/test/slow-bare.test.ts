/**
 * The slowed bare server (`floor/slow-bare.mjs`) measures what a server slower than its client
 * pays to wake it: it must answer every request, either way of writing, and start as
 * `bench/served-ab.ts` starts a side.
 */
import { fileURLToPath } from "node:url"
import { afterAll, describe, expect, it } from "vitest"
import { type RunningServer, startServer } from "../lib/Servers.js"

const SLOW_BARE = fileURLToPath(new URL("../floor/slow-bare.mjs", import.meta.url))
const servers: Array<RunningServer> = []
afterAll(async () => {
  for (const server of servers) await server.stop()
})

const start = async (env: Record<string, string>) => {
  const server = await startServer("ours", { databaseUrl: "sqlite::memory:", probe: { path: "/", headers: {} }, costline: SLOW_BARE, env })
  servers.push(server)
  return server
}

describe("the slowed bare server", () => {
  it.each([["at once", "0"], ["at the turn's end", "1"]])("answers every request %s, after its busy work", async (_, turnWrites) => {
    const server = await start({ FLOOR_BURN_US: "200", FLOOR_TURN_WRITES: turnWrites })
    const answers = await Promise.all(Array.from({ length: 5 }, () => fetch(`${server.origin}/v2/insights/x`)))
    for (const answer of answers) {
      expect(answer.status).toBe(200)
      expect(answer.headers.get("content-type")).toBe("application/json")
      expect((await answer.json() as { id: string }).id).toBe("847b7ec5-af6d-40e2-aafa-4f67d8cb0919")
    }
  })
})
