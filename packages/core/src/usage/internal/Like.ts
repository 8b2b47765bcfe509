/**
 * SQL `ILIKE` patterns: `%` matches any run of characters, `_` exactly one, `\` makes the next
 * character literal; the whole text must match, ignoring case.
 *
 * Patterns come from users, so matching must stay linear in the text whatever the pattern: a
 * translated RegExp backtracks exponentially on `%a%a%a%b`, and even a wildcard scan that retries
 * from the last `%` is O(text × pattern) on `%aaaa…ab`. Here the pattern is cut at its `%`s into
 * segments; the first must match at the start, the last at the end, and each one between is
 * found at its leftmost place after the previous one (leftmost is always best: it leaves the most
 * text to the rest). A segment is searched with the bit-parallel Shift-And algorithm, where `_` is
 * simply a position every character may take: each text character costs one step per 32
 * characters of the segment, and no text character is read twice for the same segment. A match
 * is therefore at most `text × ⌈segment / 32⌉ + pattern` steps: with values capped at
 * MAX_FILTER_TEXT (1,000 characters), at most 32 steps per text character.
 */
const ANY = Symbol("%")
const ONE = Symbol("_")
type Token = string | typeof ANY | typeof ONE

/** Characters compare one code point at a time, each folded to lower case on its own. */
const fold = (text: string): Array<string> => Array.from(text, (c) => c.toLowerCase())

/** The first problem with a pattern, or undefined when it is well-formed. */
export const patternProblem = (pattern: string): string | undefined => {
  const chars = Array.from(pattern)
  for (let i = 0; i < chars.length; i++) {
    if (chars[i] !== "\\") continue
    const next = chars[i + 1]
    if (next !== "%" && next !== "_" && next !== "\\") return "a backslash must be followed by %, _ or \\"
    i++
  }
  return undefined
}

const tokenize = (pattern: string): Array<Token> => {
  const tokens: Array<Token> = []
  const chars = fold(pattern)
  for (let i = 0; i < chars.length; i++) {
    const c = chars[i]!
    if (c === "\\" && i + 1 < chars.length) tokens.push(chars[++i]!)
    else tokens.push(c === "%" ? ANY : c === "_" ? ONE : c)
  }
  return tokens
}

/** Counts the steps of a match (see the module comment); tests read it to bound the work. */
export interface Steps {
  count: number
}

type Segment = ReadonlyArray<string | typeof ONE>

/** Whether `segment` matches `text` at `at` exactly (the caller checked it fits). */
const matchesAt = (segment: Segment, text: ReadonlyArray<string>, at: number, steps: Steps): boolean => {
  steps.count += segment.length
  for (let i = 0; i < segment.length; i++) {
    const token = segment[i]
    if (token !== ONE && token !== text[at + i]) return false
  }
  return true
}

/**
 * A Shift-And searcher for one segment: `find(text, from, to, steps)` gives the end of the
 * leftmost occurrence inside text[from, to), or -1. Bit i of the state says "the first i + 1
 * tokens match the text ending here"; `_` sets its bit in every character's mask.
 */
const searcher = (segment: Segment) => {
  const length = segment.length
  const words = Math.ceil(length / 32)
  const wildcards = new Uint32Array(words)
  for (let i = 0; i < length; i++) if (segment[i] === ONE) wildcards[i >>> 5]! |= 1 << (i & 31)
  const masks = new Map<string, Uint32Array>()
  for (let i = 0; i < length; i++) {
    const token = segment[i]!
    if (token === ONE) continue
    let mask = masks.get(token)
    if (mask === undefined) masks.set(token, mask = Uint32Array.from(wildcards))
    mask[i >>> 5]! |= 1 << (i & 31)
  }
  const lastWord = words - 1
  const lastBit = 1 << ((length - 1) & 31)
  return (text: ReadonlyArray<string>, from: number, to: number, steps: Steps): number => {
    const state = new Uint32Array(words)
    for (let t = from; t < to; t++) {
      const mask = masks.get(text[t]!) ?? wildcards
      let carry = 1
      for (let w = 0; w < words; w++) {
        const word = state[w]!
        state[w] = ((word << 1) | carry) & mask[w]!
        carry = word >>> 31
      }
      steps.count += words
      if ((state[lastWord]! & lastBit) !== 0) return t + 1
    }
    return -1
  }
}

/**
 * Compiles a well-formed pattern (see patternProblem) into a matcher. `steps`, when given,
 * accumulates the work of every match.
 */
export const compileLike = (pattern: string, steps: Steps = { count: 0 }): (text: string) => boolean => {
  const segments: Array<Array<string | typeof ONE>> = [[]]
  for (const token of tokenize(pattern)) {
    if (token === ANY) segments.push([])
    else segments[segments.length - 1]!.push(token)
  }
  const first = segments[0]!
  if (segments.length === 1) {
    return (input) => {
      const text = fold(input)
      return text.length === first.length && matchesAt(first, text, 0, steps)
    }
  }
  const last = segments[segments.length - 1]!
  const middle = segments.slice(1, -1).filter((segment) => segment.length > 0).map(searcher)
  const fixed = first.length + last.length
  return (input) => {
    const text = fold(input)
    if (text.length < fixed) return false
    const end = text.length - last.length
    if (!matchesAt(first, text, 0, steps) || !matchesAt(last, text, end, steps)) return false
    let at = first.length
    for (const find of middle) {
      at = find(text, at, end, steps)
      if (at < 0) return false
    }
    return true
  }
}
