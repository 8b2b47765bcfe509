/**
 * An incremental CSV reader (RFC 4180): text arrives in chunks of any size, records come out as
 * soon as they are complete, so a file of any length is read in constant memory.
 *
 * Fields are separated by commas and records by LF or CRLF; a field in double quotes may hold
 * commas, line breaks and doubled quotes (`""`). Blank lines are skipped. A malformed record (a
 * quote inside an unquoted field, text after a closing quote, a quote never closed) comes out
 * with a `problem` instead of failing the whole read, so every bad line can be reported.
 */

export interface CsvRecord {
  /** The 1-based line the record starts on. */
  readonly line: number
  readonly fields: ReadonlyArray<string>
  readonly problem?: string
}

export interface CsvReader {
  readonly push: (chunk: string) => ReadonlyArray<CsvRecord>
  /** The last record, when the text does not end with a line break. */
  readonly end: () => ReadonlyArray<CsvRecord>
}

const QUOTE = 0x22
const COMMA = 0x2c
const LF = 0x0a
const CR = 0x0d

/**
 * `start`: at the start of a field; `unquoted`/`quoted`: inside one; `closed`: just after a quote
 * inside a quoted field (the field's end, or the first half of `""`); `skip`: the record is
 * malformed, ignore the rest of its line.
 */
type State = "start" | "unquoted" | "quoted" | "closed" | "skip"

const countLineBreaks = (text: string) => {
  let count = 0
  for (let at = text.indexOf("\n"); at >= 0; at = text.indexOf("\n", at + 1)) count++
  return count
}

export const makeCsvReader = (): CsvReader => {
  let state: State = "start"
  let fields: Array<string> = []
  let field = ""
  let problem: string | undefined
  let line = 1
  let recordLine = 1
  let out: Array<CsvRecord> = []

  const malformed = (why: string) => {
    problem ??= why
    state = "skip"
  }

  const finishRecord = () => {
    const blank = state === "start" && fields.length === 0
    if (!blank) {
      fields.push(field)
      out.push(problem === undefined ? { line: recordLine, fields } : { line: recordLine, fields, problem })
    }
    state = "start"
    fields = []
    field = ""
    problem = undefined
  }

  const take = () => {
    const records = out
    out = []
    return records
  }

  const push = (chunk: string) => {
    let i = 0
    while (i < chunk.length) {
      if (state === "quoted") {
        const close = chunk.indexOf("\"", i)
        const content = chunk.slice(i, close < 0 ? chunk.length : close)
        field += content
        line += countLineBreaks(content)
        if (close < 0) break
        state = "closed"
        i = close + 1
        continue
      }
      const c = chunk.charCodeAt(i)
      if (c === LF) {
        finishRecord()
        line++
        recordLine = line
        i++
        continue
      }
      // A CR outside quotes is the first half of CRLF (or stray): never part of a value.
      if (c === CR) {
        i++
        continue
      }
      switch (state) {
        case "start":
          if (c === QUOTE) {
            state = "quoted"
            i++
          } else if (c === COMMA) {
            fields.push(field)
            i++
          } else {
            state = "unquoted"
          }
          break
        case "unquoted": {
          let end = i
          while (end < chunk.length) {
            const d = chunk.charCodeAt(end)
            if (d === COMMA || d === LF || d === CR || d === QUOTE) break
            end++
          }
          field += chunk.slice(i, end)
          i = end
          const stop = chunk.charCodeAt(end)
          if (stop === COMMA) {
            fields.push(field)
            field = ""
            state = "start"
            i++
          } else if (stop === QUOTE) {
            malformed("a double quote inside an unquoted field (quote the whole field and double the quote)")
            i++
          }
          break
        }
        case "closed":
          if (c === QUOTE) {
            field += "\""
            state = "quoted"
          } else if (c === COMMA) {
            fields.push(field)
            field = ""
            state = "start"
          } else {
            malformed("text after the closing quote of a field")
          }
          i++
          break
        case "skip":
          i++
          break
      }
    }
    return take()
  }

  const end = () => {
    if (state === "quoted") problem ??= "a quoted field is never closed"
    finishRecord()
    return take()
  }

  return { push, end }
}
