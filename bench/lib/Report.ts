/** The run's results: one row per scenario, store and connection count; a table and a JSON file. */
import { mkdirSync, writeFileSync } from "node:fs"
import { cpus } from "node:os"
import { dirname } from "node:path"

export interface ResultRow {
  readonly name: string
  readonly store: string
  /** Concurrent connections; null for figures not measured under load (cold start, idle RSS). */
  readonly connections: number | null
  readonly unit: string
  readonly ours: number
  readonly baseline: number
  /** ours / baseline: above 1 is better for throughput, below 1 for times and memory. */
  readonly ratio: number
  readonly p50_ms: number | null
  readonly p99_ms: number | null
  readonly baseline_p50_ms: number | null
  readonly baseline_p99_ms: number | null
  /** Server CPU time per request (user + system, from /proc), µs; null where not measured under load. */
  readonly ours_cpu_us: number | null
  readonly baseline_cpu_us: number | null
  /** The Fastify peer, for the scenarios it serves; null elsewhere. `peer_ratio` = peer / baseline. */
  readonly peer: number | null
  readonly peer_ratio: number | null
  readonly peer_cpu_us: number | null
  readonly peer_p99_ms: number | null
}

/** The CPU and peer fields, for rows that have none. */
export const NO_CPU = {
  ours_cpu_us: null,
  baseline_cpu_us: null,
  peer: null,
  peer_cpu_us: null,
  peer_p99_ms: null
} as const

const rounded = (value: number, digits: number) => Number(value.toFixed(digits))
const roundedMs = (value: number | null) => (value === null ? null : rounded(value, 1))

const roundedOrNull = (value: number | null, digits: number) => (value === null ? null : rounded(value, digits))

type RowFields =
  & Omit<ResultRow, "ratio" | "peer_ratio" | keyof typeof NO_CPU>
  & Partial<Record<keyof typeof NO_CPU, number | null>>

export const row = (fields: RowFields): ResultRow => {
  const peer = fields.peer ?? null
  return {
    ...NO_CPU,
    ...fields,
    ours: rounded(fields.ours, 1),
    baseline: rounded(fields.baseline, 1),
    ratio: rounded(fields.ours / fields.baseline, 2),
    p50_ms: roundedMs(fields.p50_ms),
    p99_ms: roundedMs(fields.p99_ms),
    baseline_p50_ms: roundedMs(fields.baseline_p50_ms),
    baseline_p99_ms: roundedMs(fields.baseline_p99_ms),
    ours_cpu_us: roundedOrNull(fields.ours_cpu_us ?? null, 0),
    baseline_cpu_us: roundedOrNull(fields.baseline_cpu_us ?? null, 0),
    peer: roundedOrNull(peer, 1),
    peer_ratio: peer === null ? null : rounded(peer / fields.baseline, 2),
    peer_cpu_us: roundedOrNull(fields.peer_cpu_us ?? null, 0),
    peer_p99_ms: roundedMs(fields.peer_p99_ms ?? null)
  }
}

const cell = (value: number | string | null) => (value === null ? "-" : String(value))

export const table = (rows: ReadonlyArray<ResultRow>): string => {
  const header = [
    "scenario", "store", "conns", "unit", "ours", "baseline", "ratio", "µs/req", "base µs", "peer", "peer ratio", "peer µs",
    "p50 ms", "p99 ms", "base p99", "peer p99"
  ]
  const lines = rows.map((r) =>
    [
      r.name, r.store, r.connections, r.unit, r.ours, r.baseline, r.ratio, r.ours_cpu_us, r.baseline_cpu_us, r.peer,
      r.peer_ratio, r.peer_cpu_us, r.p50_ms, r.p99_ms, r.baseline_p99_ms, r.peer_p99_ms
    ].map(cell)
  )
  const widths = header.map((title, column) => Math.max(title.length, ...lines.map((line) => line[column]!.length)))
  const format = (cells: ReadonlyArray<string>) => cells.map((text, column) => text.padEnd(widths[column]!)).join("  ")
  return [format(header), format(widths.map((width) => "-".repeat(width))), ...lines.map(format)].join("\n")
}

export const writeResults = (path: string, rows: ReadonlyArray<ResultRow>, notes: Record<string, unknown>) => {
  mkdirSync(dirname(path), { recursive: true })
  const results = {
    when: new Date().toISOString(),
    node: process.version,
    cpus: cpus().length,
    ...notes,
    scenarios: rows
  }
  writeFileSync(path, JSON.stringify(results, null, 2) + "\n")
}

const thousands = (value: number | null) => (value === null ? "–" : Math.round(value).toLocaleString("en-US"))
const ratioCell = (value: number | null) => (value === null ? "–" : value.toFixed(2))

/**
 * The rows measured under load as the Markdown table docs/performance.md is built around: per
 * scenario, store and connection count, costline's, the baseline's and the peer's throughput and
 * server CPU µs per request, and p99s.
 */
export const markdownTable = (rows: ReadonlyArray<ResultRow>): string => {
  const header = "| scenario | store | conns | ours / baseline / peer | ratio (peer) | CPU µs/req ours / base / peer | p99 ms ours / base / peer |"
  const lines = rows.filter((r) => r.connections !== null && r.ours_cpu_us !== null).map((r) =>
    `| \`${r.name}\` (${r.unit}) | ${r.store} | ${r.connections} | ${thousands(r.ours)} / ${thousands(r.baseline)} / ${
      thousands(r.peer)
    } | ${ratioCell(r.ratio)}${r.peer_ratio === null ? "" : ` (${ratioCell(r.peer_ratio)})`} | ${thousands(r.ours_cpu_us)} / ${
      thousands(r.baseline_cpu_us)
    } / ${thousands(r.peer_cpu_us)} | ${r.p99_ms ?? "–"} / ${r.baseline_p99_ms ?? "–"} / ${r.peer_p99_ms ?? "–"} |`
  )
  return [header, "|---|---|---|---|---|---|---|", ...lines].join("\n")
}
