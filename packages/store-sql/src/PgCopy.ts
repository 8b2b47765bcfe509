/**
 * Postgres's COPY text format, for bulk writes with `COPY … FROM STDIN`: one line a row, columns
 * separated by tabs, `\N` for NULL, and in a value a backslash, newline, carriage return or tab
 * written as its backslash escape (everything else, any Unicode, as it is). The server parses this
 * far more cheaply than array literals or bound parameters, and it is one message stream a batch.
 */
import type { SqlValue } from "./SqlDialect.js"

const NEEDS_ESCAPE = /[\\\n\r\t]/
const ESCAPED = /[\\\n\r\t]/g
const ESCAPES: Record<string, string> = { "\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t" }
const escape = (char: string) => ESCAPES[char]!

/** A value as COPY text reads it for its column; NUL, which no Postgres text holds, is refused. */
const field = (value: SqlValue | undefined): string => {
  if (value === null || value === undefined) return "\\N"
  if (typeof value === "number") {
    // COPY reads `Infinity`/`NaN` for double precision as JS writes them; no other form differs.
    return String(value)
  }
  if (typeof value === "boolean") return value ? "t" : "f"
  if (value.includes("\u0000")) throw new Error("a text value holds a NUL character, which Postgres cannot store")
  return NEEDS_ESCAPE.test(value) ? value.replace(ESCAPED, escape) : value
}

/**
 * The rows of `values` (row after row, `width` values each) as COPY text: a line each.
 */
export const copyText = (values: ReadonlyArray<SqlValue>, width: number): string => {
  const lines: Array<string> = []
  const row: Array<string> = new Array(width)
  for (let from = 0; from < values.length; from += width) {
    for (let column = 0; column < width; column++) row[column] = field(values[from + column])
    lines.push(row.join("\t"))
  }
  lines.push("")
  return lines.join("\n")
}
