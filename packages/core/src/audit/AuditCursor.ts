/**
 * Audit page tokens: opaque, signed (HMAC-SHA256), bound to the tenant and the sort order.
 * The position inside is the store's own ordering key (SQLite: a sequence; Postgres:
 * `xid:seq`), never a timestamp: many records share one `changed_at`.
 */
import { Either } from "effect"
import { createHmac, timingSafeEqual } from "node:crypto"
import type { SortOrder } from "./Domain.js"

export interface CursorPayload {
  readonly tenant: string
  readonly order: SortOrder
  readonly position: string
}

export type CursorError = "malformed" | "bad_signature" | "other_tenant" | "other_order"

const VERSION = 1
const SIGNATURE_BYTES = 16

const sign = (secret: string, body: string) =>
  createHmac("sha256", secret).update(body).digest().subarray(0, SIGNATURE_BYTES)

export const encode = (secret: string, payload: CursorPayload): string => {
  const body = Buffer.from(JSON.stringify([VERSION, payload.tenant, payload.order, payload.position])).toString(
    "base64url"
  )
  return `${body}.${sign(secret, body).toString("base64url")}`
}

/** Decodes and verifies a token; it must have been issued for this tenant and order. */
export const decode = (
  secret: string,
  token: string,
  expected: { readonly tenant: string; readonly order: SortOrder }
): Either.Either<CursorPayload, CursorError> => {
  const parts = token.split(".")
  if (parts.length !== 2) return Either.left("malformed")
  const [body, signature] = parts as [string, string]
  if (!/^[A-Za-z0-9_-]+$/.test(body) || !/^[A-Za-z0-9_-]+$/.test(signature)) return Either.left("malformed")
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
    typeof parsed[1] !== "string" || (parsed[2] !== "asc" && parsed[2] !== "desc") || typeof parsed[3] !== "string"
  ) return Either.left("malformed")
  const payload: CursorPayload = { tenant: parsed[1], order: parsed[2], position: parsed[3] }
  if (payload.tenant !== expected.tenant) return Either.left("other_tenant")
  if (payload.order !== expected.order) return Either.left("other_order")
  return Either.right(payload)
}

export const describe = (error: CursorError): string => {
  switch (error) {
    case "malformed":
    case "bad_signature":
      return "page_token is not a token this service issued"
    case "other_tenant":
      return "page_token was issued for another organization"
    case "other_order":
      return "page_token was issued for the other sort_order"
  }
}
