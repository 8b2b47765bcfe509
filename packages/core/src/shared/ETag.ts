/**
 * Strong ETags and the `If-Match` / `If-None-Match` conditions (RFC 9110 §8.8.3, §13.1).
 * An ETag is a hash of the canonical JSON of a state, so equal states always share one ETag,
 * whatever the key order, and any change of the state changes it.
 */
import { Either } from "effect"
import { hash } from "node:crypto"
import { ValidationFailed } from "./Errors.js"

/** 128 bits of SHA-256: collisions are out of reach and the header stays short. */
const HASH_BYTES = 16

/**
 * JSON with object keys sorted at every depth; `undefined` members are left out, as JSON.stringify does.
 * @since 0.1.0
 * @category utils
 */
export const canonicalJson = (value: unknown): string => {
  if (Array.isArray(value)) return `[${value.map((item) => canonicalJson(item ?? null)).join(",")}]`
  if (value !== null && typeof value === "object") {
    const record = value as Record<string, unknown>
    const members = Object.keys(record)
      .filter((key) => record[key] !== undefined)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonicalJson(record[key])}`)
    return `{${members.join(",")}}`
  }
  return JSON.stringify(value) ?? "null"
}

/**
 * The strong ETag (quoted, as sent in the header) of a JSON-compatible state.
 * @since 0.1.0
 * @category utils
 */
export const compute = (state: unknown): string =>
  `"${hash("sha256", canonicalJson(state), "buffer").subarray(0, HASH_BYTES).toString("base64url")}"`

/**
 * @since 0.1.0
 * @category models
 */
export interface EntityTag {
  readonly weak: boolean
  /** The opaque tag with its quotes, e.g. `"abc"`. */
  readonly opaque: string
}

/**
 * A parsed condition header: `*` or a non-empty list of entity tags.
 * @since 0.1.0
 * @category models
 */
export type Condition =
  | { readonly _tag: "Any" }
  | { readonly _tag: "Tags"; readonly tags: readonly [EntityTag, ...Array<EntityTag>] }

/**
 * @since 0.1.0
 * @category models
 */
export type ConditionHeader = "if-match" | "if-none-match"

// entity-tag = [ "W/" ] DQUOTE *etagc DQUOTE ; etagc = %x21 / %x23-7E / obs-text
const ENTITY_TAG = /(W\/)?("[\x21\x23-\x7e\x80-\xff]*")/y
const OWS = /[ \t]*/y
const ANY = /^[ \t]*\*[ \t]*$/

const malformed = (header: ConditionHeader, why: string) =>
  ValidationFailed.single(`header.${header}`, "invalid", `${header} must be * or a list of entity tags: ${why}`)

const skip = (pattern: RegExp, text: string, from: number): number => {
  pattern.lastIndex = from
  pattern.exec(text)
  return pattern.lastIndex
}

/**
 * Parses a header value. Empty list elements are tolerated, as RFC 9110 §5.6.1 asks of recipients.
 * @since 0.1.0
 * @category utils
 */
export const parse = (header: ConditionHeader, value: string): Either.Either<Condition, ValidationFailed> => {
  if (ANY.test(value)) return Either.right({ _tag: "Any" })
  const tags: Array<EntityTag> = []
  let at = 0
  while (at < value.length) {
    at = skip(OWS, value, at)
    if (value[at] === ",") {
      at += 1
      continue
    }
    if (at === value.length) break
    ENTITY_TAG.lastIndex = at
    const match = ENTITY_TAG.exec(value)
    if (match === null) return Either.left(malformed(header, `unexpected input at position ${at}`))
    tags.push({ weak: match[1] !== undefined, opaque: match[2]! })
    at = skip(OWS, value, ENTITY_TAG.lastIndex)
    if (at < value.length && value[at] !== ",") {
      return Either.left(malformed(header, `expected ',' at position ${at}`))
    }
  }
  const [first, ...rest] = tags
  if (first === undefined) return Either.left(malformed(header, "no entity tag"))
  return Either.right({ _tag: "Tags", tags: [first, ...rest] })
}

/**
 * @since 0.1.0
 * @category utils
 */
export const format = (condition: Condition): string =>
  condition._tag === "Any"
    ? "*"
    : condition.tags.map((tag) => `${tag.weak ? "W/" : ""}${tag.opaque}`).join(", ")

/**
 * `If-Match`: strong comparison, so a weak tag never matches; `*` matches any current state.
 * @since 0.1.0
 * @category utils
 */
export const matches = (condition: Condition, current: string): boolean =>
  condition._tag === "Any" || condition.tags.some((tag) => !tag.weak && tag.opaque === current)

/**
 * `If-None-Match` uses weak comparison: `W/"x"` and `"x"` name the same state.
 * @since 0.1.0
 * @category utils
 */
export const matchesWeakly = (condition: Condition, current: string): boolean =>
  condition._tag === "Any" || condition.tags.some((tag) => tag.opaque === current)
