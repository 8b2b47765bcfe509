/**
 * What Postgres and its client spend per query with and without a named (prepared) statement:
 * the insight read and the 50-insight list page of the benchmark, through a bare `pg.Pool`, 8 in
 * flight, alternating unnamed and named runs. Reports per query the client's CPU (this process),
 * Postgres's CPU (its process tree, from /proc) and the wall time, one JSON line per run.
 *
 *   npx vite-node bench/pg-prepared.ts -- --queries 3000 --rounds 3
 */
import { parseArgs } from "node:util"
import pg from "pg"
import { seed } from "./lib/Seed.js"
import { postgresTarget } from "./lib/Stores.js"

const { values: flags } = parseArgs({
  args: process.argv.slice(2),
  options: { queries: { type: "string", default: "3000" }, rounds: { type: "string", default: "3" } }
})
const COLUMNS = "id, insight_type, title, description, status, assignee, is_current, severity, resource_type, resource_id, dw_id, " +
  "connection_id, potential_savings, details, create_time, update_time, first_viewed_by, last_viewed_by, first_viewed_at, " +
  "last_viewed_at, view_count, etag"
const LIST = `SELECT ${COLUMNS} FROM insights WHERE (organization_id = $1 AND "status" IN ($2)) ORDER BY "create_time" DESC, id DESC LIMIT $3`
const GET = `SELECT ${COLUMNS} FROM insights WHERE organization_id = $1 AND id = $2`
const IN_FLIGHT = 8

const target = await postgresTarget()
try {
  await seed(target, { auditRecords: 1_000, insights: 5_000, usageRecords: 0 })
  const pool = new pg.Pool({ connectionString: target.url, max: IN_FLIGHT })
  const [{ organization_id: organization }] = (await pool.query("SELECT organization_id FROM insights LIMIT 1")).rows
  const ids: Array<string> = (await pool.query("SELECT id FROM insights LIMIT 500")).rows.map((row) => row.id)
  const serverCpu = target.serverCpuSeconds ?? (() => Number.NaN)

  const run = async (query: "insight_get" | "insights_list", named: boolean, count: number) => {
    const client = process.cpuUsage()
    const server = serverCpu()
    const started = performance.now()
    let next = 0
    await Promise.all(Array.from({ length: IN_FLIGHT }, async () => {
      while (next < count) {
        const n = next++
        const config = query === "insight_get"
          ? { text: GET, values: [organization, ids[n % ids.length]] }
          : { text: LIST, values: [organization, "open", 50] }
        await pool.query(named ? { ...config, name: query } : config)
      }
    }))
    const spent = process.cpuUsage(client)
    return {
      query,
      named,
      client_cpu_us: Math.round((spent.user + spent.system) / count),
      postgres_cpu_us: Math.round(((serverCpu() - server) * 1e6) / count),
      wall_us: Math.round(((performance.now() - started) * 1000) / count)
    }
  }

  for (const query of ["insight_get", "insights_list"] as const) {
    // Warm both ways (and prepare the named statement on every connection) before measuring.
    await run(query, false, 2_000)
    await run(query, true, 2_000)
    for (let round = 0; round < Number(flags.rounds); round++) {
      for (const named of [false, true]) console.log(JSON.stringify(await run(query, named, Number(flags.queries))))
    }
  }
  await pool.end()
} finally {
  await target.dispose()
}
