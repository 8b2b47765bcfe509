/**
 * The demo's warehouse usage: a generated month of account-usage exports with planted problems
 * (core's `DwExportGenerator`: idle, oversized and queueing warehouses, spilling and repeated
 * queries, clean controls), ingested like real exports. `costline ingest demo` loads it on
 * demand; `costline serve --demo` loads it once, when it creates the demo organization, so a
 * first `npm start` already shows computed insights, usage and idle cost.
 */
import { Actor, DwExportGenerator, DwIngest } from "@costline/core"
import type { Ids } from "@costline/core"
import { Effect, Stream } from "effect"

/** March 2024: fixed, so the demo reads the same on every machine. */
const START = new Date(Date.UTC(2024, 2, 1))

export const ingestDemoMonth = (organizationId: Ids.OrganizationId, days = 30) =>
  Effect.gen(function*() {
    const generated = DwExportGenerator.generateExports({ days, controls: 3, start: START })
    // A fresh generator per pass: the ingestion reads the queries twice.
    const text = (lines: () => Iterable<string>) => () => Stream.fromIterable(lines())
    const ingest = yield* DwIngest.DwIngest
    return yield* ingest.run(Actor.Actor.system(), organizationId, {
      metering: { format: "csv", open: text(() => DwExportGenerator.csvLines(DwExportGenerator.METERING_HEADER, generated.metering())) },
      queries: { format: "jsonl", open: text(() => DwExportGenerator.jsonLines(generated.queries())) }
    })
  })
