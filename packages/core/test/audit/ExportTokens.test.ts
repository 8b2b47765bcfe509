import { describe, expect, it } from "@effect/vitest"
import { Either, FastCheck as fc } from "effect"
import { createHmac } from "node:crypto"
import { exportList } from "../../src/audit/AuditLog.js"
import type { SortOrder } from "../../src/audit/Domain.js"
import * as PageToken from "../../src/shared/PageToken.js"

const SECRET = "installation-secret"
const order = fc.constantFrom("asc" as const, "desc" as const)
const payload = fc.record({ tenant: fc.string({ unit: "binary" }), order, position: fc.string({ unit: "binary" }) })
const other = (o: "asc" | "desc") => (o === "asc" ? "desc" : "asc")

/** The audit export's tokens: the one page-token format, bound to the sort order. */
const AuditCursor = {
  encode: (secret: string, p: { tenant: string; order: SortOrder; position: string }) =>
    PageToken.encode(secret, { tenant: p.tenant, binding: p.order, position: p.position }),
  decode: (secret: string, token: string, expected: { tenant: string; order: SortOrder }) =>
    Either.map(
      PageToken.decode(secret, token, { tenant: expected.tenant, ...exportList(expected.order) }),
      ({ binding, position, tenant }) => ({ tenant, order: binding, position })
    )
}

/** Every character a token could be garbled into: its own alphabet, the separator, and some others. */
const tokenChar = fc.constantFrom(
  ..."ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.=+/ %é".split("")
)

describe("audit export page tokens", () => {
  it.prop("decodes what it encoded, for any tenant, order and position", [payload], ([p]) => {
    const decoded = AuditCursor.decode(SECRET, AuditCursor.encode(SECRET, p), { tenant: p.tenant, order: p.order })
    expect(decoded).toStrictEqual(Either.right(p))
  })

  it.prop(
    "rejects a token with any one character changed",
    [payload, fc.nat(), tokenChar],
    ([p, index, replacement]) => {
      const token = AuditCursor.encode(SECRET, p)
      const at = index % token.length
      fc.pre(token[at] !== replacement)
      const garbled = token.slice(0, at) + replacement + token.slice(at + 1)
      expect(Either.isLeft(AuditCursor.decode(SECRET, garbled, { tenant: p.tenant, order: p.order }))).toBe(true)
    },
    { fastCheck: { numRuns: 2000 } }
  )

  it("rejects every other spelling of the signature's last character", () => {
    // Its low bits are padding that base64url decoding drops: only the exact text may verify.
    const token = AuditCursor.encode(SECRET, { tenant: "t", order: "asc", position: "42" })
    const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
    const respelled = [...alphabet].filter((c) => c !== token.at(-1)).map((c) => token.slice(0, -1) + c)
    const accepted = respelled.filter((t) => Either.isRight(AuditCursor.decode(SECRET, t, { tenant: "t", order: "asc" })))
    expect(accepted).toStrictEqual([])
  })

  it.prop("a token of one tenant never verifies for another", [payload, fc.string()], ([p, otherTenant]) => {
    fc.pre(otherTenant !== p.tenant)
    const token = AuditCursor.encode(SECRET, p)
    expect(AuditCursor.decode(SECRET, token, { tenant: otherTenant, order: p.order })).toStrictEqual(
      Either.left("other_tenant")
    )
  })

  it.prop("a token of one sort order is rejected for the other", [payload], ([p]) => {
    const token = AuditCursor.encode(SECRET, p)
    expect(AuditCursor.decode(SECRET, token, { tenant: p.tenant, order: other(p.order) })).toStrictEqual(
      Either.left("other_order")
    )
  })

  it.prop("a token signed with another secret is rejected", [payload, fc.string()], ([p, secret]) => {
    fc.pre(secret !== SECRET)
    const token = AuditCursor.encode(secret, p)
    expect(AuditCursor.decode(SECRET, token, { tenant: p.tenant, order: p.order })).toStrictEqual(
      Either.left("bad_signature")
    )
  })

  it.prop("any string decodes to an error, never a throw", [fc.string({ unit: "binary" })], ([garbage]) => {
    expect(Either.isLeft(AuditCursor.decode(SECRET, garbage, { tenant: "t", order: "asc" }))).toBe(true)
  })

  it.prop(
    "strings shaped like tokens decode to an error, never a throw",
    [fc.base64String(), fc.base64String()],
    ([body, signature]) => {
      const token = `${body}.${signature}`.replaceAll("+", "-").replaceAll("/", "_").replaceAll("=", "")
      expect(Either.isLeft(AuditCursor.decode(SECRET, token, { tenant: "t", order: "asc" }))).toBe(true)
    }
  )

  it.each([
    ["not JSON", "{"],
    ["another version", JSON.stringify([2, "t", "asc", "1"])],
    ["too few members", JSON.stringify([1, "t", "asc"])],
    ["a numeric position", JSON.stringify([1, "t", "asc", 1])],
    ["an object", JSON.stringify({ tenant: "t", order: "asc", position: "1" })]
  ])("rejects a validly signed body holding %s as malformed", (_, json) => {
    // Signed exactly as the module documents (HMAC-SHA256 of the body, first 16 bytes), so only
    // the payload check can reject it.
    const body = Buffer.from(json).toString("base64url")
    const signature = createHmac("sha256", SECRET).update(body).digest().subarray(0, 16).toString("base64url")
    expect(AuditCursor.decode(SECRET, `${body}.${signature}`, { tenant: "t", order: "asc" })).toStrictEqual(
      Either.left("malformed")
    )
  })

  it("a validly signed token of another list is refused as another list's", () => {
    const token = PageToken.encode(SECRET, { tenant: "t", binding: "sso_groups", position: "1" })
    expect(AuditCursor.decode(SECRET, token, { tenant: "t", order: "asc" })).toStrictEqual(Either.left("other_binding"))
  })

  it("describes every error without revealing the token", () => {
    const errors: ReadonlyArray<PageToken.PageTokenError> = ["malformed", "bad_signature", "other_tenant", "other_order"]
    expect(errors.map((error) => PageToken.describe(error))).toStrictEqual([
      "page_token is not a token this service issued",
      "page_token is not a token this service issued",
      "page_token was issued for another organization",
      "page_token was issued for the other sort_order"
    ])
  })
})
