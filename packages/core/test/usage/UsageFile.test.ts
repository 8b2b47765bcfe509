import { describe, expect, it } from "@effect/vitest"
import { Chunk, Effect, Either, Option, Stream } from "effect"
import { formatOfPath, type ParsedRow, parseRows, type UsageFileFormat } from "../../src/usage/UsageFile.js"

const rows = (format: UsageFileFormat, ...chunks: Array<string>) =>
  Stream.runCollect(parseRows(format, Stream.fromIterable(chunks))).pipe(Effect.map(Chunk.toArray))

const summary = (parsed: ReadonlyArray<ParsedRow>) =>
  parsed.map((row) => [row.line, Either.isRight(row.record) ? row.record.right : row.record.left])

describe("formatOfPath", () => {
  it.each([
    ["usage.jsonl", "jsonl"],
    ["dir.v2/usage.NDJSON", "jsonl"],
    ["usage.csv", "csv"]
  ] as const)("%s is %s", (path, format) => {
    expect(formatOfPath(path)).toEqual(Option.some(format))
  })

  it.each(["usage.json", "usage", "csv", "usage.csv/"])("%s has no format", (path) => {
    expect(formatOfPath(path)).toEqual(Option.none())
  })
})

describe("JSON Lines", () => {
  it.effect("one record per line, blank lines skipped but counted", () =>
    Effect.gen(function*() {
      const parsed = yield* rows("jsonl", "{\"start_time\":\"2024-05-01\",\"credits\":1}\n\n  \r\n{\"start_time\":\"2024-05-0", "2T00:00:00Z\",\"credits\":2,\"tags\":{\"a\":\"b\"}}")
      expect(summary(parsed)).toEqual([
        [1, { start_time: new Date("2024-05-01T00:00:00Z"), credits: 1 }],
        [4, { start_time: new Date("2024-05-02T00:00:00Z"), credits: 2, tags: { a: "b" } }]
      ])
    }))

  it.effect("each bad line says what is wrong with it", () =>
    Effect.gen(function*() {
      const parsed = yield* rows("jsonl", [
        "{\"start_time\": \"2024-05-01\", \"credits\": 1,}",
        "[1, 2]",
        "{\"credits\": 1}",
        "{\"start_time\": \"2024-05-01\", \"credits\": 1, \"warehouse\": \"ETL\"}",
        "{\"start_time\": \"2024-05-01\", \"credits\": 1, \"warehouse_name\": \"a\\u0000b\"}",
        "{\"start_time\": \"05/01/2024\", \"credits\": 1e400}"
      ].join("\n"))
      expect(summary(parsed)).toEqual([
        [1, "not valid JSON (column 43)"],
        [2, "a row must be a JSON object"],
        [3, "start_time is required"],
        [4, expect.stringMatching(/^unknown column 'warehouse'; the columns are start_time, credits, warehouse_name, /)],
        [5, "text must not contain NUL characters or unpaired surrogates"],
        [6, expect.stringMatching(/^start_time: must be an ISO 8601 timestamp such as 2024-05-01T12:00:00Z, not "05\/01\/2024"; credits: /)]
      ])
    }))
})

describe("CSV", () => {
  it.effect("converts cells to what their columns need; an empty cell is no value", () =>
    Effect.gen(function*() {
      const parsed = yield* rows(
        "csv",
        "\uFEFF start_time , credits,is_serverless,tags,accessed_databases,bytes_scanned,user_name\n",
        "2024-05-01T00:00:00Z,1.5e1,TRUE,\"{\"\"team\"\":\"\"bi\"\"}\",\"[\"\"RAW\"\"]\",-2,\n2024-05-02,0,,,,,0042\n"
      )
      expect(summary(parsed)).toEqual([
        [2, {
          start_time: new Date("2024-05-01T00:00:00Z"),
          credits: 15,
          is_serverless: true,
          tags: { team: "bi" },
          accessed_databases: ["RAW"],
          bytes_scanned: -2
        }],
        [3, { start_time: new Date("2024-05-02T00:00:00Z"), credits: 0, user_name: "0042" }]
      ])
    }))

  it.effect("a cell that does not convert is reported with its column; so is a row of the wrong width", () =>
    Effect.gen(function*() {
      const parsed = yield* rows("csv", "start_time,credits,is_serverless,tags\n2024-05-01,lots,yes,{oops\n2024-05-01,1\n")
      expect(summary(parsed)).toEqual([
        [2, expect.stringMatching(/^credits: Expected number, actual "lots"; is_serverless: .*; tags: /)],
        [3, "2 fields where the header has 4"]
      ])
    }))

  it.effect.each([
    ["start_time,credits,warehouse\n", "line 1: unknown column 'warehouse'; the columns are start_time, credits"],
    ["start_time,start_time,credits\n", "line 1: column 'start_time' appears twice"],
    ["start_time,warehouse_name\n", "line 1: the header needs the columns credits"],
    ["\"start_time,credits\n", "line 1: a quoted field is never closed"]
  ])("a header that cannot be used fails the whole file: %j", ([header, message]) =>
    Effect.gen(function*() {
      const failure = yield* Effect.flip(rows("csv", header!, "2024-05-01,1\n"))
      expect(failure.message.startsWith(message!)).toBe(true)
      expect(failure.details[0]!.field).toBe("line 1")
    }))

  it.effect("an empty file has no rows", () =>
    Effect.gen(function*() {
      expect(yield* rows("csv", "")).toEqual([])
      expect(yield* rows("jsonl", "\n\n")).toEqual([])
    }))
})
