/**
 * Where a JSON text stops being JSON. `JSON.parse` reports positions only in some of its messages,
 * and their wording differs between Node versions, so the position is found by a scan of our own.
 * The scan is iterative: a deeply nested text cannot overflow the stack.
 */

export interface SyntaxErrorLocation {
  /** Offset in UTF-16 code units, as `String.prototype` counts. */
  readonly offset: number
  /** 1-based. */
  readonly line: number
  /** 1-based, in UTF-16 code units. */
  readonly column: number
  /** The offending character, or undefined at the end of the text. */
  readonly found: string | undefined
}

type Expect = "value" | "value_or_close" | "key" | "key_or_close" | "colon" | "comma_or_close" | "end"

const WHITESPACE = new Set([" ", "\t", "\n", "\r"])
const ESCAPES = new Set(["\"", "\\", "/", "b", "f", "n", "r", "t"])
const HEX = /^[0-9a-fA-F]$/

const isHex = (c: string | undefined) => c !== undefined && HEX.test(c)

/** A scanned token ends at `end`, or the text breaks at `at`. */
type Scan = { readonly end: number } | { readonly at: number }

const scanString = (text: string, start: number): Scan => {
  let i = start + 1
  while (i < text.length) {
    const c = text[i]!
    if (c === "\"") return { end: i + 1 }
    // Control characters must be escaped inside a string.
    if (c.charCodeAt(0) < 0x20) return { at: i }
    if (c !== "\\") {
      i++
    } else if (text[i + 1] === "u") {
      for (let k = i + 2; k < i + 6; k++) if (!isHex(text[k])) return { at: k }
      i += 6
    } else if (ESCAPES.has(text[i + 1] ?? "")) {
      i += 2
    } else {
      return { at: i + 1 }
    }
  }
  return { at: text.length }
}

const scanLiteral = (text: string, start: number): Scan => {
  const literal = ["true", "false", "null"].find((word) => word[0] === text[start])
  if (literal === undefined) return { at: start }
  for (let k = 0; k < literal.length; k++) {
    if (text[start + k] !== literal[k]) return { at: start + k }
  }
  return { end: start + literal.length }
}

const isDigit = (c: string | undefined) => c !== undefined && c >= "0" && c <= "9"

/** Breaks where a digit is due but missing, as JSON.parse's own positions do. */
const scanNumber = (text: string, start: number): Scan => {
  let i = start
  if (text[i] === "-") i++
  if (text[i] === "0") i++
  else if (isDigit(text[i])) while (isDigit(text[i])) i++
  else return { at: i }
  if (text[i] === ".") {
    if (!isDigit(text[++i])) return { at: i }
    while (isDigit(text[i])) i++
  }
  if (text[i] === "e" || text[i] === "E") {
    i++
    if (text[i] === "+" || text[i] === "-") i++
    if (!isDigit(text[i])) return { at: i }
    while (isDigit(text[i])) i++
  }
  return { end: i }
}

/** A string, number or literal starting at `start` (containers are handled by the caller). */
const scanScalar = (text: string, start: number): Scan => {
  const c = text[start]!
  if (c === "\"") return scanString(text, start)
  if (c === "-" || isDigit(c)) return scanNumber(text, start)
  return scanLiteral(text, start)
}

const locate = (text: string, offset: number): SyntaxErrorLocation => {
  const before = text.slice(0, offset)
  const lineStart = before.lastIndexOf("\n") + 1
  return {
    offset,
    line: before.split("\n").length,
    column: offset - lineStart + 1,
    found: text[offset]
  }
}

/** The first offset at which `text` cannot continue as JSON, or undefined if it is valid JSON. */
export const locateSyntaxError = (text: string): SyntaxErrorLocation | undefined => {
  const open: Array<"]" | "}"> = []
  let expect: Expect = "value"
  let i = 0
  const afterValue = (): Expect => (open.length === 0 ? "end" : "comma_or_close")
  while (true) {
    while (i < text.length && WHITESPACE.has(text[i]!)) i++
    if (i === text.length) return expect === "end" ? undefined : locate(text, i)
    const c = text[i]!
    if (expect === "end") return locate(text, i)
    if (expect === "colon" || expect === "comma_or_close") {
      if (expect === "colon" && c === ":") expect = "value"
      else if (expect === "comma_or_close" && c === ",") expect = open.at(-1) === "}" ? "key" : "value"
      else if (expect === "comma_or_close" && c === open.at(-1)) {
        open.pop()
        expect = afterValue()
      } else return locate(text, i)
      i++
      continue
    }
    if ((expect === "value_or_close" && c === "]") || (expect === "key_or_close" && c === "}")) {
      open.pop()
      expect = afterValue()
      i++
      continue
    }
    if (expect === "key" || expect === "key_or_close") {
      if (c !== "\"") return locate(text, i)
      const scan = scanString(text, i)
      if ("at" in scan) return locate(text, scan.at)
      expect = "colon"
      i = scan.end
      continue
    }
    // expect is "value" or "value_or_close"
    if (c === "[" || c === "{") {
      open.push(c === "[" ? "]" : "}")
      expect = c === "[" ? "value_or_close" : "key_or_close"
      i++
      continue
    }
    const scan = scanScalar(text, i)
    if ("at" in scan) return locate(text, scan.at)
    expect = afterValue()
    i = scan.end
  }
}
