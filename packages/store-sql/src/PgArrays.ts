/**
 * Postgres array literals, for bulk statements that pass a column of values as one parameter
 * (`unnest($1::text[], …)`, `= ANY($1::text[])`): one parameter per column instead of one per
 * value, and no statement text that grows with the batch.
 */

const NEEDS_ESCAPE = /["\\]/
const ESCAPED = /["\\]/g

/**
 * A Postgres array literal (`{"a","1.5",NULL}`) of one column's values: each value quoted as
 * text, `"` and `\` escaped. node-postgres writes the same for a JS array, but several times
 * slower (two regex replacements per element).
 */
export const arrayLiteral = (values: ArrayLike<unknown>, from = 0, step = 1): string => {
  const parts: Array<string> = []
  for (let i = from; i < values.length; i += step) {
    const value = values[i]
    if (value === null || value === undefined) {
      parts.push("NULL")
      continue
    }
    if (typeof value !== "string" && typeof value !== "number" && typeof value !== "boolean") {
      throw new Error(`cannot write ${typeof value} into an array literal`)
    }
    const text = String(value)
    parts.push(`"${NEEDS_ESCAPE.test(text) ? text.replace(ESCAPED, "\\$&") : text}"`)
  }
  return `{${parts.join(",")}}`
}
