/**
 * How deeply a JSON text nests, found by one linear scan of the raw text: no parser runs, so a
 * body of thousands of `[` cannot exhaust the stack of whatever would walk the parsed value
 * (schema decoding, error reporting). Brackets inside strings do not count.
 */

/** The deepest nesting a request body may have: far above any operation's own shape. */
export const MAX_JSON_DEPTH = 64

const QUOTE = 0x22
const BACKSLASH = 0x5c
const OPEN_ARRAY = 0x5b
const CLOSE_ARRAY = 0x5d
const OPEN_OBJECT = 0x7b
const CLOSE_OBJECT = 0x7d

/** True when `text` opens more than `max` arrays/objects inside one another at some point. */
export const exceeds = (text: string, max: number): boolean => {
  let depth = 0
  let inString = false
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index)
    if (inString) {
      if (code === BACKSLASH) index++
      else if (code === QUOTE) inString = false
    } else if (code === QUOTE) {
      inString = true
    } else if (code === OPEN_ARRAY || code === OPEN_OBJECT) {
      if (++depth > max) return true
    } else if (code === CLOSE_ARRAY || code === CLOSE_OBJECT) {
      depth--
    }
  }
  return false
}
