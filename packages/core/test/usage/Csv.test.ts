import { describe, expect, it } from "@effect/vitest"
import { FastCheck as fc } from "effect"
import { type CsvRecord, makeCsvReader } from "../../src/usage/internal/Csv.js"

/** Reads `text` cut into the given chunks. */
const read = (...chunks: Array<string>): Array<CsvRecord> => {
  const reader = makeCsvReader()
  return [...chunks.flatMap((chunk) => reader.push(chunk)), ...reader.end()]
}

const fieldsOf = (records: Array<CsvRecord>) => records.map((record) => record.fields)

describe("makeCsvReader", () => {
  it("splits records on LF and CRLF, fields on commas; the last line needs no line break", () => {
    expect(fieldsOf(read("a,b\r\nc,d\ne,f"))).toEqual([["a", "b"], ["c", "d"], ["e", "f"]])
  })

  it("keeps empty fields, also a trailing one", () => {
    expect(fieldsOf(read("a,,c\n,\nx,\n"))).toEqual([["a", "", "c"], ["", ""], ["x", ""]])
  })

  it("quoted fields hold commas, line breaks and doubled quotes", () => {
    expect(fieldsOf(read("\"a,b\",\"line\nbreak\",\"say \"\"hi\"\"\",\"\"\n"))).toEqual([["a,b", "line\nbreak", "say \"hi\"", ""]])
  })

  it("skips blank lines and numbers each record by the line it starts on", () => {
    const records = read("h1,h2\n\n\"multi\nline\",x\r\n\ny,z\n")
    expect(records.map((r) => [r.line, r.fields])).toEqual([[1, ["h1", "h2"]], [3, ["multi\nline", "x"]], [6, ["y", "z"]]])
  })

  it("reports a malformed record and goes on with the next", () => {
    const records = read("a\"b,c\n\"x\"y,z\nok,1\n\"never closed")
    expect(records.map((r) => [r.line, r.problem])).toEqual([
      [1, "a double quote inside an unquoted field (quote the whole field and double the quote)"],
      [2, "text after the closing quote of a field"],
      [3, undefined],
      [4, "a quoted field is never closed"]
    ])
    expect(records[2]!.fields).toEqual(["ok", "1"])
  })

  it("an empty text has no records", () => {
    expect(read("")).toEqual([])
    expect(read("\n\r\n")).toEqual([])
  })

  const cell = fc.string({ unit: fc.constantFrom("a", "Z", ",", "\"", "\n", "\r\n", " ", "é", "1") })
  const table = fc.array(fc.array(cell, { minLength: 1, maxLength: 4 }), { minLength: 1, maxLength: 6 })
    // A record of one empty field is a blank line, which readers skip.
    .map((rows) => rows.filter((row) => !(row.length === 1 && row[0] === "")))
  const quote = (field: string) => `"${field.replaceAll("\"", "\"\"")}"`

  it.prop("reads back what is written, however the text is cut into chunks", {
    rows: table,
    cuts: fc.array(fc.nat(), { maxLength: 8 })
  }, ({ cuts, rows }) => {
    const text = rows.map((row) => row.map(quote).join(",")).join("\r\n")
    const at = [...new Set(cuts.map((cut) => cut % (text.length + 1)))].sort((a, b) => a - b)
    const chunks = [0, ...at].map((start, i) => text.slice(start, [...at, text.length][i]))
    expect(fieldsOf(read(...chunks))).toEqual(rows)
  })

  it.prop("never throws, whatever the text", { chunks: fc.array(fc.string({ unit: fc.constantFrom("a", ",", "\"", "\n", "\r") })) }, ({ chunks }) => {
    for (const record of read(...chunks)) expect(record.fields.length).toBeGreaterThan(0)
  })
})
