/**
 * The one rule for which fields hold secrets, and how a value is made safe to show: used by the
 * audit log, by every HTTP error body and by the server's log lines. A field is secret when its
 * name (any case) contains `private_key`, `token`, `secret`, `password`, `passphrase`,
 * `authorization` or `api_key`, or ends in `_hash`. Page tokens (`page_token`,
 * `next_page_token`) are opaque cursors, not credentials, and stay visible.
 * @since 0.1.0
 * @category constants
 */

export const REDACTED = "[redacted]"

/**
 * Nesting below this depth is not walked: it is replaced, so no input can exhaust the stack.
 * @since 0.1.0
 * @category constants
 */
export const MAX_WALK_DEPTH = 32

/**
 * @since 0.1.0
 * @category constants
 */
export const TOO_DEEP = "[too deeply nested]"

const SECRET_NAME = /private_?key|token|secret|password|passphrase|authorization|api_?key|_hash$/i
const PAGE_TOKEN = /page_?token$/i

/**
 * @since 0.1.0
 * @category utils
 */
export const isSecretField = (name: PropertyKey): boolean =>
  typeof name === "string" && SECRET_NAME.test(name) && !PAGE_TOKEN.test(name)

/**
 * Whether a path (`["credentials", "private_key", 0]`) goes through a secret field.
 * @since 0.1.0
 * @category utils
 */
export const isSecretPath = (path: ReadonlyArray<PropertyKey>): boolean => path.some(isSecretField)

/** Parsed JSON and object literals; class instances (errors, dates) are not walked. */
const isPlainObject = (value: unknown): value is Record<string, unknown> => {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return false
  const prototype = Object.getPrototypeOf(value)
  return prototype === Object.prototype || prototype === null
}

/**
 * A copy of `value` with the value of every secret field replaced by `[redacted]`, at any depth
 * (up to `MAX_WALK_DEPTH`; deeper content is replaced by a marker). Plain JSON-like data is
 * walked; other objects (errors, dates) are kept as they are unless `everyObject` is set.
 * @since 0.1.0
 * @category utils
 */
export const redactSecretFields = (value: unknown, options: { readonly everyObject?: boolean } = {}): unknown => {
  const walk = (item: unknown, depth: number): unknown => {
    if (Array.isArray(item)) return depth >= MAX_WALK_DEPTH ? TOO_DEEP : item.map((member) => walk(member, depth + 1))
    const walkable = options.everyObject ? item !== null && typeof item === "object" : isPlainObject(item)
    if (!walkable) return item
    if (depth >= MAX_WALK_DEPTH) return TOO_DEEP
    return Object.fromEntries(
      Object.entries(item as object).map(([key, member]) => [key, isSecretField(key) ? REDACTED : walk(member, depth + 1)])
    )
  }
  return walk(value, 0)
}

/**
 * Every string held under a secret field of `value` (for scrubbing text that may quote them).
 * @since 0.1.0
 * @category utils
 */
export const secretStrings = (value: unknown, underSecret = false, depth = 0): Array<string> => {
  if (depth >= MAX_WALK_DEPTH) return []
  if (typeof value === "string") return underSecret && value.length > 0 ? [value] : []
  if (typeof value === "number" || typeof value === "bigint" || typeof value === "boolean") {
    return underSecret ? [String(value)] : []
  }
  if (Array.isArray(value)) return value.flatMap((item) => secretStrings(item, underSecret, depth + 1))
  if (isPlainObject(value)) {
    return Object.entries(value).flatMap(([key, item]) => secretStrings(item, underSecret || isSecretField(key), depth + 1))
  }
  return []
}

/** PEM blocks of private keys, whatever their label and line breaks. */
const PEM_PRIVATE_KEY = /-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----[\s\S]*?(?:-----END [A-Z0-9 ]*PRIVATE KEY-----|$)/g

/**
 * `text` with every PEM private key block replaced: a safety net for free text (causes, messages).
 * @since 0.1.0
 * @category utils
 */
export const scrubPrivateKeys = (text: string): string =>
  text.includes("PRIVATE KEY-----") ? text.replace(PEM_PRIVATE_KEY, REDACTED) : text
