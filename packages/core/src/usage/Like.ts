/**
 * SQL `ILIKE` patterns: `%` matches any run of characters, `_` exactly one, `\` makes the next
 * character literal; the whole text must match, ignoring case. Matched by a wildcard scan that
 * is O(text × pattern) at worst: a translated RegExp can backtrack exponentially on patterns like
 * `%a%a%a%a%b`, and patterns come from users.
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

/** Compiles a well-formed pattern (see patternProblem) into a matcher. */
export const compileLike = (pattern: string): (text: string) => boolean => {
  const tokens = tokenize(pattern)
  return (input) => {
    const text = fold(input)
    let t = 0
    let p = 0
    // Where the last `%` stood and where in the text it currently ends: on a mismatch the `%`
    // swallows one more character. Earlier `%`s never need revisiting, since the last one can
    // absorb whatever they would.
    let star = -1
    let starEnd = 0
    while (t < text.length) {
      const token = tokens[p]
      if (token === ONE || (token !== undefined && token === text[t])) {
        t++
        p++
      } else if (token === ANY) {
        star = p++
        starEnd = t
      } else if (star >= 0) {
        p = star + 1
        t = ++starEnd
      } else {
        return false
      }
    }
    while (tokens[p] === ANY) p++
    return p === tokens.length
  }
}
