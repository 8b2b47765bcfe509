// @ts-check
/**
 * What every baseline request does before its own work, as costline does it: the API key looked
 * up by its SHA-256 (one indexed query per request) and checked against the tenant header, and
 * page tokens in costline's format (`base64url(JSON [1, tenant, binding, position]).signature`,
 * HMAC-SHA256 truncated to 16 bytes) signed with the installation's secret, so that a token of
 * either server opens on the other.
 */
import { createHash, createHmac, timingSafeEqual } from "node:crypto"

const KEY_BY_HASH = {
  sqlite: "SELECT name, organization_id, revoked_at, expires_at FROM api_keys WHERE token_hash = ?",
  postgres: "SELECT name, organization_id, revoked_at, expires_at FROM api_keys WHERE token_hash = $1"
}
const CURSOR_SECRET = {
  sqlite: "SELECT cursor_secret FROM installation WHERE id = 1",
  postgres: "SELECT cursor_secret FROM installation WHERE id = 1"
}

/**
 * The tenant of an authorised request and how the audit log names the key, or undefined.
 * @param {import("./stores.mjs").Store} store
 * @param {import("node:http").IncomingMessage} request
 */
export const authorise = async (store, request) => {
  const bearer = /^Bearer (.+)$/.exec(request.headers.authorization ?? "")?.[1]
  const tenant = request.headers["x-tenant-id"]
  if (bearer === undefined || typeof tenant !== "string") return undefined
  const [key] = await store.all(KEY_BY_HASH, [createHash("sha256").update(bearer, "utf8").digest("hex")])
  const usable = key !== undefined && key.organization_id === tenant && key.revoked_at === null &&
    (key.expires_at === null || new Date(key.expires_at).getTime() > Date.now())
  return usable ? { tenant, changedBy: `api_key:${key.name}` } : undefined
}

/** @param {import("./stores.mjs").Store} store */
export const pageTokens = async (store) => {
  const [{ cursor_secret: secret }] = /** @type {Array<{ cursor_secret: string }>} */ (await store.all(CURSOR_SECRET, []))
  const sign = (/** @type {string} */ body) => createHmac("sha256", secret).update(body).digest().subarray(0, 16).toString("base64url")
  return {
    /** @param {string} tenant @param {string} binding @param {string} position */
    encode: (tenant, binding, position) => {
      const body = Buffer.from(JSON.stringify([1, tenant, binding, position])).toString("base64url")
      return `${body}.${sign(body)}`
    },
    /** The position, when the token is genuine and bound to this tenant and list. @param {string} token @param {string} tenant @param {string} binding */
    open: (token, tenant, binding) => {
      const [body = "", signature = ""] = token.split(".")
      const wanted = Buffer.from(sign(body))
      const given = Buffer.from(signature)
      if (given.length !== wanted.length || !timingSafeEqual(given, wanted)) return undefined
      const [, boundTenant, boundTo, position] = JSON.parse(Buffer.from(body, "base64url").toString("utf8"))
      return boundTenant === tenant && boundTo === binding ? /** @type {string} */ (position) : undefined
    }
  }
}
