import { describe, expect, it } from "@effect/vitest"
import { Chunk, Effect, Either, Stream } from "effect"
import { type ExportRow, readExport } from "../../src/intelligence/ExportFile.js"
import type { ExportKind, RowOf } from "../../src/intelligence/Exports.js"
import type { UsageFileFormat } from "../../src/usage/UsageFile.js"

const read = <K extends ExportKind>(kind: K, format: UsageFileFormat, ...chunks: Array<string>) =>
  Stream.runCollect(readExport(kind, format, Stream.fromIterable(chunks))).pipe(Effect.map(Chunk.toArray))

const rights = <A>(rows: ReadonlyArray<ExportRow<A>>) => rows.map((row) => Either.getOrThrow(row.row))
const lefts = <A>(rows: ReadonlyArray<ExportRow<A>>) =>
  rows.flatMap((row) => (Either.isLeft(row.row) ? [[row.line, row.row.left] as const] : []))

const METERING_HEADER =
  "START_TIME,END_TIME,WAREHOUSE_ID,WAREHOUSE_NAME,CREDITS_USED,CREDITS_USED_COMPUTE,CREDITS_USED_CLOUD_SERVICES,EXTRA_COLUMN\n"

describe("WAREHOUSE_METERING_HISTORY", () => {
  it.effect("CSV as the warehouse unloads it: offsets, empty cells, unknown columns ignored", () =>
    Effect.gen(function*() {
      const rows = yield* read(
        "metering",
        "csv",
        METERING_HEADER,
        "2024-03-01 08:00:00.000 -0800,2024-03-01 09:00:00.000 -0800,12,\"ETL, nightly\",1.05,1,0.05,whatever\n",
        "2024-03-01 09:00:00.000 -0800,2024-03-01 10:00:00.000 -0800,,ETL,,2,,\n"
      )
      expect(rights(rows)).toEqual([
        {
          start: Date.parse("2024-03-01T16:00:00Z"),
          end: Date.parse("2024-03-01T17:00:00Z"),
          warehouseId: "12",
          warehouse: "ETL, nightly",
          creditsUsed: 1.05,
          compute: 1,
          cloudServices: 0.05,
          attributedToQueries: null
        },
        {
          start: Date.parse("2024-03-01T17:00:00Z"),
          end: Date.parse("2024-03-01T18:00:00Z"),
          warehouseId: null,
          warehouse: "ETL",
          creditsUsed: null,
          compute: 2,
          cloudServices: null,
          attributedToQueries: null
        }
      ])
    }))

  it.effect("the hour repeated when daylight saving ends is two hours, told apart by their offsets", () =>
    Effect.gen(function*() {
      const rows = yield* read(
        "metering",
        "csv",
        "start_time,end_time,warehouse_id,warehouse_name,credits_used,credits_used_compute,credits_used_cloud_services\n",
        "2024-11-03 01:00:00.000 -0700,2024-11-03 01:00:00.000 -0800,1,WH,1,1,0\n",
        "2024-11-03 01:00:00.000 -0800,2024-11-03 02:00:00.000 -0800,1,WH,1,1,0\n"
      )
      const [first, second] = rights(rows) as ReadonlyArray<RowOf<"metering">>
      expect(second!.start - first!.start).toBe(3_600_000)
      expect(first!.end).toBe(second!.start)
    }))

  it.effect("a header without a needed column fails naming it", () =>
    Effect.gen(function*() {
      const error = yield* Effect.flip(read("metering", "csv", "START_TIME,END_TIME,WAREHOUSE_NAME,CREDITS_USED\n"))
      expect(error.message).toBe(
        "WAREHOUSE_METERING_HISTORY line 1: the header lacks the columns WAREHOUSE_ID, CREDITS_USED_COMPUTE, CREDITS_USED_CLOUD_SERVICES"
      )
    }))

  it.effect("every bad row is reported with its line and why", () =>
    Effect.gen(function*() {
      const rows = yield* read(
        "metering",
        "csv",
        METERING_HEADER,
        "2024-03-01 08:00,2024-03-01 09:00,1,WH,1,-1,0,\n",
        "yesterday,2024-03-01 09:00,1,WH,1,1,0,\n",
        "2024-03-01 08:00,2024-03-01 09:00,1,,1,1,0,\n",
        "2024-03-01 08:00,2024-03-01 09:00,1,WH,1\n"
      )
      expect(lefts(rows)).toEqual([
        [2, "CREDITS_USED_COMPUTE must not be negative"],
        [3, "START_TIME must be a timestamp such as 2024-05-01 12:00:00.000 -0700, not \"yesterday\""],
        [4, "WAREHOUSE_NAME is required"],
        [5, "5 fields where the header has 8"]
      ])
    }))
})

describe("QUERY_HISTORY", () => {
  const header = [
    "QUERY_ID", "QUERY_TEXT", "QUERY_TYPE", "DATABASE_NAME", "SCHEMA_NAME", "USER_NAME", "ROLE_NAME", "WAREHOUSE_NAME",
    "WAREHOUSE_SIZE", "QUERY_TAG", "EXECUTION_STATUS", "START_TIME", "END_TIME", "TOTAL_ELAPSED_TIME", "EXECUTION_TIME",
    "COMPILATION_TIME", "QUEUED_PROVISIONING_TIME", "QUEUED_OVERLOAD_TIME", "BYTES_SCANNED", "PERCENTAGE_SCANNED_FROM_CACHE",
    "BYTES_SPILLED_TO_LOCAL_STORAGE", "BYTES_SPILLED_TO_REMOTE_STORAGE", "PARTITIONS_SCANNED", "PARTITIONS_TOTAL",
    "ROWS_PRODUCED", "QUERY_PARAMETERIZED_HASH"
  ]

  it.effect("query text with commas, quotes and line breaks; the cache share is a fraction", () =>
    Effect.gen(function*() {
      const rows = yield* read(
        "queries",
        "csv",
        `${header.join(",")}\n`,
        "q1,\"SELECT a, b\nFROM \"\"t\"\"\",SELECT,DB,S,U,R,WH,X-Small,,SUCCESS,2024-03-01 08:00:00.000 -0800,",
        "2024-03-01 08:00:10.000 -0800,10000,9000,500,0,500,1024,0.5,0,0,3,10,7,abc\n"
      )
      const [row] = rights(rows)
      expect(row).toMatchObject({
        queryId: "q1",
        queryText: "SELECT a, b\nFROM \"t\"",
        queryTag: null,
        executionMs: 9000,
        cacheFraction: 0.5,
        end: Date.parse("2024-03-01T16:00:10Z"),
        parameterizedHash: "abc"
      })
    }))

  it.effect("JSON Lines: keys in any case, numbers as text, a missing column named per row", () =>
    Effect.gen(function*() {
      const full = Object.fromEntries(header.map((name) => [name.toLowerCase(), null]))
      const good: Record<string, unknown> = { ...full, query_id: "q1", start_time: "2024-03-01T08:00:00Z", end_time: "2024-03-01T08:00:01Z", bytes_scanned: "1e3" }
      const { warehouse_size: _, ...missing } = good
      const rows = yield* read(
        "queries",
        "jsonl",
        `${JSON.stringify(good)}\n${JSON.stringify(missing)}\n{"query_id":\n${JSON.stringify({ ...good, percentage_scanned_from_cache: 50 })}\n`
      )
      expect(rights(rows.slice(0, 1))[0]).toMatchObject({ queryId: "q1", bytesScanned: 1000, warehouseSize: null })
      expect(lefts(rows)).toEqual([
        [2, "missing column WAREHOUSE_SIZE"],
        [3, "not valid JSON (column 13)"],
        [4, "PERCENTAGE_SCANNED_FROM_CACHE is a fraction from 0 to 1"]
      ])
    }))
})

describe("QUERY_ATTRIBUTION_HISTORY", () => {
  it.effect("credits per query", () =>
    Effect.gen(function*() {
      const rows = yield* read(
        "attribution",
        "csv",
        "QUERY_ID,PARENT_QUERY_ID,WAREHOUSE_NAME,START_TIME,END_TIME,CREDITS_ATTRIBUTED_COMPUTE\n",
        "q1,,WH,2024-03-01 08:00:00 -0800,2024-03-01 08:01:00 -0800,0.25\n"
      )
      expect(rights(rows)).toEqual([{ queryId: "q1", warehouse: "WH", credits: 0.25 }])
    }))
})
