import { describe, expect, it } from "@effect/vitest"
import { Chunk, Effect, Either, Stream } from "effect"
import { makeLedger } from "../../src/intelligence/Allocation.js"
import { DAY_MS, makeDetectors } from "../../src/intelligence/Detectors.js"
import { readExport } from "../../src/intelligence/ExportFile.js"
import type { MeteringRow, QueryRow } from "../../src/intelligence/Exports.js"
import { DEFAULT_THRESHOLDS, type Thresholds, thresholdsOf } from "../../src/intelligence/Settings.js"
import {
  generateExports,
  type GeneratorOptions,
  METERING_HEADER,
  toCsv,
  toJsonLines
} from "../../src/intelligence/ExportGenerator.js"

const collect = <A>(stream: Stream.Stream<{ readonly row: Either.Either<A, string> }, unknown>) =>
  Stream.runCollect(stream).pipe(Effect.map((rows) => Chunk.toArray(rows).map((row) => Either.getOrThrow(row.row))))

/** The pure pipeline DwIngest runs: read, allocate, detect. */
const analyze = (options: GeneratorOptions, thresholds: Thresholds = DEFAULT_THRESHOLDS) =>
  Effect.gen(function*() {
    const generated = generateExports(options)
    const metering: ReadonlyArray<MeteringRow> = yield* collect(
      readExport("metering", "csv", Stream.make(toCsv(METERING_HEADER, generated.metering())))
    )
    const queries: ReadonlyArray<QueryRow> = yield* collect(
      readExport("queries", "jsonl", Stream.make(toJsonLines(generated.queries())))
    )
    const ledger = makeLedger({ attribution: false })
    metering.forEach(ledger.addHour)
    queries.forEach((q) => ledger.addQuery(q))
    ledger.finalize()
    const end = Math.max(...metering.map((row) => row.end))
    const detectors = makeDetectors({ from: end - thresholds.window_days * DAY_MS, to: end }, thresholds)
    let allocated = 0
    for (const q of queries) {
      const credits = ledger.creditsOf(q)
      allocated += credits
      detectors.observeQuery(q, credits)
    }
    let idle = 0
    for (const hour of ledger.hours()) {
      idle += hour.idle
      detectors.observeHour(hour)
    }
    return { generated, findings: detectors.findings(), allocated, idle }
  })

describe("detectors over generated exports", () => {
  it.effect("find every planted problem on its resource with its savings within 10%, and nothing on the controls", () =>
    Effect.gen(function*() {
      const { findings, generated, allocated, idle } = yield* analyze({ days: 14, controls: 3 })
      const found = findings.map((f) => [f.insight_type, f.resource_id, f.potential_savings] as const)
      for (const planted of generated.planted) {
        const match = found.find(([type, id]) => type === planted.insight_type && id === planted.resource_id)
        expect(match, `${planted.insight_type} on ${planted.resource_id}`).toBeDefined()
        if (planted.potential_savings === null) expect(match![2]).toBeNull()
        else expect(Math.abs(match![2]! - planted.potential_savings) / planted.potential_savings).toBeLessThan(0.1)
      }
      // Nothing but the planted problems: in particular no insight on a control warehouse.
      expect(found.length).toBe(generated.planted.length)
      for (const f of findings) expect(generated.controls).not.toContain(f.resource_id)
      expect(Math.abs(allocated + idle - generated.computeCredits) / generated.computeCredits).toBeLessThan(1e-9)
    }))

  it.effect("thresholds are the organization's: a higher idle threshold silences warehouse_idle", () =>
    Effect.gen(function*() {
      const thresholds = Either.getOrThrow(thresholdsOf({ cost_intelligence: { idle_min_share: 0.9 } }))
      const { findings } = yield* analyze({ days: 7, controls: 1 }, thresholds)
      expect(findings.map((f) => f.insight_type)).not.toContain("warehouse_idle")
      expect(findings.map((f) => f.insight_type)).toContain("oversized_warehouse")
    }))

  it.effect("the window: only the last window_days of the input are judged", () =>
    Effect.gen(function*() {
      // The planted spills run on the first 10 days only; a 3-day window of 14 days misses them.
      const thresholds = { ...DEFAULT_THRESHOLDS, window_days: 3 }
      const { findings } = yield* analyze({ days: 14, controls: 1 }, thresholds)
      expect(findings.map((f) => f.insight_type)).not.toContain("query_remote_spill")
      const idle = findings.find((f) => f.insight_type === "warehouse_idle")!
      expect(idle.details["window_days"]).toBe(3)
    }))

  it("a malformed override is a clear error", () => {
    const result = thresholdsOf({ cost_intelligence: { idle_min_share: 2, bogus: 1 } })
    expect(Either.isLeft(result) && result.left.message).toContain("cost_intelligence")
  })
})
