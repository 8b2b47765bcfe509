/**
 * Postgres's COPY text format, for bulk writes with `COPY … FROM STDIN`: one line a row, columns
 * separated by tabs, `\N` for NULL, and in a value a backslash, newline, carriage return or tab
 * written as its backslash escape (everything else, any Unicode, as it is). The server parses this
 * far more cheaply than array literals or bound parameters, and it is one message stream a batch.
 */
const NEEDS_ESCAPE = /[\\\n\r\t]/
const ESCAPED = /[\\\n\r\t]/g
const ESCAPES: Record<string, string> = { "\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t" }
const escape = (char: string) => ESCAPES[char]!

/** A text value as COPY reads it (no NULL): its separators and escape escaped. */
export const copyEscape = (value: string): string => {
  if (value.includes("\u0000")) throw new Error("a text value holds a NUL character, which Postgres cannot store")
  return NEEDS_ESCAPE.test(value) ? value.replace(ESCAPED, escape) : value
}
