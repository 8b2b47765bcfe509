/**
 * The one page-token format of every list: `base64url(JSON [version, tenant, binding, position])`
 * + `.` + 16 bytes of HMAC-SHA256, keyed by the installation's secret. `binding` says what the
 * token may resume (an audit sort order, one team's member list, ...), so a token is never
 * accepted by another list, another ordering or another tenant. `position` is the list's own
 * resume key, opaque here.
 */
import { Either } from "effect"
import { createHmac, timingSafeEqual } from "node:crypto"

/**
 * @since 0.1.0
 * @category models
 */
export interface PageTokenPayload {
  readonly tenant: string
  readonly binding: string
  readonly position: string
}

/**
 * @since 0.1.0
 * @category models
 */
export type PageTokenError = "malformed" | "bad_signature" | "other_tenant" | "other_binding" | "other_order"

const VERSION = 1
const SIGNATURE_BYTES = 16
const BASE64URL = /^[A-Za-z0-9_-]+$/

const sign = (secret: string, body: string) =>
  createHmac("sha256", secret).update(body).digest().subarray(0, SIGNATURE_BYTES)

/**
 * @since 0.1.0
 * @category utils
 */
export const encode = (secret: string, payload: PageTokenPayload): string => {
  const body = Buffer.from(JSON.stringify([VERSION, payload.tenant, payload.binding, payload.position])).toString(
    "base64url"
  )
  return `${body}.${sign(secret, body).toString("base64url")}`
}

/**
 * Verifies the signature and the shape only; the caller checks what the token is bound to.
 * @since 0.1.0
 * @category utils
 */
export const open = (secret: string, token: string): Either.Either<PageTokenPayload, "malformed" | "bad_signature"> => {
  const parts = token.split(".")
  if (parts.length !== 2) return Either.left("malformed")
  const [body, signature] = parts as [string, string]
  if (!BASE64URL.test(body) || !BASE64URL.test(signature)) return Either.left("malformed")
  // Compare the text, not decoded bytes: base64url decoding ignores the spare low bits of the last
  // character, so several spellings of a signature would decode to the same valid bytes.
  const given = Buffer.from(signature)
  const wanted = Buffer.from(sign(secret, body).toString("base64url"))
  if (given.length !== wanted.length || !timingSafeEqual(given, wanted)) return Either.left("bad_signature")
  let parsed: unknown
  try {
    parsed = JSON.parse(Buffer.from(body, "base64url").toString("utf8"))
  } catch {
    return Either.left("malformed")
  }
  if (
    !Array.isArray(parsed) || parsed.length !== 4 || parsed[0] !== VERSION ||
    typeof parsed[1] !== "string" || typeof parsed[2] !== "string" || typeof parsed[3] !== "string"
  ) return Either.left("malformed")
  return Either.right({ tenant: parsed[1], binding: parsed[2], position: parsed[3] })
}

/**
 * Opens a token that must have been issued for this tenant and binding. `otherOrders` are the
 * bindings of the same list in another sort order, named as such when a token carries one.
 * @since 0.1.0
 * @category utils
 */
export const decode = (
  secret: string,
  token: string,
  expected: {
    readonly tenant: string
    readonly binding: string
    readonly otherOrders?: ReadonlyArray<string> | undefined
  }
): Either.Either<PageTokenPayload, PageTokenError> =>
  Either.flatMap(open(secret, token), (payload): Either.Either<PageTokenPayload, PageTokenError> => {
    if (payload.tenant !== expected.tenant) return Either.left("other_tenant")
    if (expected.otherOrders?.includes(payload.binding)) return Either.left("other_order")
    if (payload.binding !== expected.binding) return Either.left("other_binding")
    return Either.right(payload)
  })

/**
 * @since 0.1.0
 * @category utils
 */
export const describe = (error: PageTokenError): string => {
  switch (error) {
    case "malformed":
    case "bad_signature":
      return "page_token is not a token this service issued"
    case "other_tenant":
      return "page_token was issued for another organization"
    case "other_binding":
      return "page_token was issued for another list"
    case "other_order":
      return "page_token was issued for the other sort_order"
  }
}
