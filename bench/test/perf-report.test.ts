/** `bench/perf-served.ts` groups a `perf report` of a node server by what the CPU was doing. */
import { describe, expect, it } from "vitest"
import { byCategory, categoryOf, parseRows } from "../lib/PerfReport.js"

// The shape `perf report --stdio --no-children --sort comm,dso,sym` prints (rows from a real run).
const REPORT = `
# Samples: 20K of event 'cpu-clock:ppp'
#
# Overhead  Command     Shared Object         Symbol
# ........  ..........  ....................  ......
#
     2.37%  MainThread  linux-x64.node        [.] sqlite3VdbeExec
     1.79%  MainThread  node                  [.] v8::internal::JsonStringifier::Serialize_<false>
     1.76%  MainThread  [kernel.kallsyms]     [k] _raw_spin_unlock_irqrestore
     1.76%  V8Worker    node                  [.] v8::internal::ConcurrentMarking::RunMajor
     1.50%  MainThread  libc.so.6             [.] _int_malloc
     1.00%  MainThread  [JIT] tid 3084        [.] JS:*'encodeStruct :3:29
     0.98%  MainThread  node                  [.] Builtins_KeyedHasIC_Megamorphic
     0.98%  MainThread  node                  [.] v8::internal::Utf8DecoderBase<v8::internal::Utf8Decoder>::Utf8DecoderBase
     0.95%  MainThread  node                  [.] v8::internal::Scavenger::ScavengeObject<v8::internal::FullHeapObjectSlot>
     0.43%  MainThread  node                  [.] llhttp__internal__run
     0.40%  MainThread  node                  [.] v8::internal::HeapObject::SizeFromMap
`

describe("a perf report of a served process", () => {
  it("reads every sample row, a JIT object's name with its thread id included", () => {
    const rows = parseRows(REPORT)
    expect(rows).toHaveLength(11)
    expect(rows[5]).toEqual({ percent: 1, thread: "MainThread", dso: "[JIT] tid 3084", symbol: "JS:*'encodeStruct :3:29" })
  })

  it("puts each row where its CPU went", () => {
    expect(parseRows(REPORT).map(categoryOf)).toEqual([
      "SQLite addon",
      "V8 JSON",
      "kernel",
      "V8 worker threads (collector, compiler)",
      "libc (malloc, memmove)",
      "JavaScript (JIT code)",
      "V8 builtins (property access, calls)",
      "V8 strings and UTF-8",
      "V8 collector, main thread",
      "node and libuv",
      "V8 runtime (other)"
    ])
  })

  it("sums the categories, largest first", () => {
    const totals = byCategory(parseRows(REPORT))
    expect(totals[0]).toEqual(["SQLite addon", 2.37])
    expect(totals.find(([category]) => category === "V8 collector, main thread")?.[1]).toBeCloseTo(0.95, 5)
    expect(totals.reduce((sum, [, percent]) => sum + percent, 0)).toBeCloseTo(13.92, 5)
  })
})
