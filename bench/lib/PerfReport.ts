/**
 * Reading `perf report --stdio --no-children --sort comm,dso,sym` of a node server: its rows, and
 * their self time grouped by what the CPU was doing (`bench/perf-served.ts`). The groups answer
 * where a served request's CPU goes that a V8 CPU profile cannot show: the kernel's sockets, the
 * collector on the main thread and on V8's worker threads, V8's runtime and builtins, the
 * addon's SQLite, libc's allocator.
 */

/** One row: its share of the samples (percent), the thread's name, the shared object, the symbol. */
export interface Row {
  readonly percent: number
  readonly thread: string
  readonly dso: string
  readonly symbol: string
}

// `  12.34%  MainThread  node  [.] v8::internal::…` — a JIT object is named `[JIT] tid 1234`.
const ROW = /^\s*(\d+(?:\.\d+)?)%\s+(\S+)\s+(\[JIT\] tid \d+|\S+)\s+\[[.k]\]\s+(.*)$/

/** The rows of a report, in its order; header, blank and call-graph lines are skipped. */
export const parseRows = (report: string): Array<Row> =>
  report.split("\n").flatMap((line) => {
    const match = ROW.exec(line)
    return match === null ? [] : [{ percent: Number(match[1]), thread: match[2]!, dso: match[3]!, symbol: match[4]!.trim() }]
  })

export const CATEGORIES = [
  "JavaScript (JIT code)",
  "V8 builtins (property access, calls)",
  "V8 runtime (other)",
  "V8 JSON",
  "V8 strings and UTF-8",
  "V8 collector, main thread",
  "V8 worker threads (collector, compiler)",
  "SQLite addon",
  "libc (malloc, memmove)",
  "kernel",
  "node and libuv"
] as const
export type Category = typeof CATEGORIES[number]

const COLLECTOR = /Scaveng|Mark|Sweep|Heap::|Evacuat|Compactor|RememberedSet|ConcurrentMarking|RecordWrite/

/** What a row's CPU was doing. */
export const categoryOf = (row: Row): Category => {
  if (row.thread !== "MainThread") return "V8 worker threads (collector, compiler)"
  if (row.dso.startsWith("[kernel")) return "kernel"
  if (row.dso.startsWith("[JIT]")) return "JavaScript (JIT code)"
  if (row.dso.endsWith(".node")) return "SQLite addon"
  if (row.dso.startsWith("libc")) return "libc (malloc, memmove)"
  if (COLLECTOR.test(row.symbol)) return "V8 collector, main thread"
  if (row.symbol.includes("Json")) return "V8 JSON"
  if (/Utf8|String|CopyChars|simdutf|Latin1/.test(row.symbol)) return "V8 strings and UTF-8"
  if (row.symbol.startsWith("Builtins_")) return "V8 builtins (property access, calls)"
  if (/llhttp|node::|uv_|uv__|napi_/.test(row.symbol)) return "node and libuv"
  return "V8 runtime (other)"
}

/** Each category's share (percent of all samples), largest first; categories without samples left out. */
export const byCategory = (rows: ReadonlyArray<Row>): Array<readonly [Category, number]> => {
  const totals = new Map<Category, number>()
  for (const row of rows) {
    const category = categoryOf(row)
    totals.set(category, (totals.get(category) ?? 0) + row.percent)
  }
  return [...totals].sort(([, a], [, b]) => b - a)
}
