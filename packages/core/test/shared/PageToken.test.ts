import { describe, expect, it } from "@effect/vitest"
import { Either, FastCheck as fc } from "effect"
import * as PageToken from "../../src/shared/PageToken.js"

const SECRET = "installation-secret"
const payload = fc.record({ tenant: fc.string(), binding: fc.string(), position: fc.string({ unit: "binary" }) })

describe("PageToken", () => {
  it.prop("opens and decodes what it encoded, for any tenant, binding and position", [payload], ([p]) => {
    const token = PageToken.encode(SECRET, p)
    expect(PageToken.open(SECRET, token)).toStrictEqual(Either.right(p))
    expect(PageToken.decode(SECRET, token, { tenant: p.tenant, binding: p.binding })).toStrictEqual(Either.right(p))
  })

  it.prop("a token resumes only the list and the tenant it was issued for", [payload, fc.string()], ([p, other]) => {
    const token = PageToken.encode(SECRET, p)
    fc.pre(other !== p.binding && other !== p.tenant)
    expect(PageToken.decode(SECRET, token, { tenant: p.tenant, binding: other })).toStrictEqual(Either.left("other_binding"))
    expect(PageToken.decode(SECRET, token, { tenant: other, binding: p.binding })).toStrictEqual(Either.left("other_tenant"))
  })

  it.prop("another secret's token, and any garbage, is refused without throwing", [payload, fc.string({ unit: "binary" })], ([p, garbage]) => {
    expect(PageToken.open(`${SECRET}!`, PageToken.encode(SECRET, p))).toStrictEqual(Either.left("bad_signature"))
    expect(Either.isLeft(PageToken.open(SECRET, garbage))).toBe(true)
  })

  it("keeps the wire format of the audit cursor: [version, tenant, binding, position]", () => {
    const token = PageToken.encode(SECRET, { tenant: "t", binding: "asc", position: "42" })
    const [body] = token.split(".")
    expect(JSON.parse(Buffer.from(body!, "base64url").toString("utf8"))).toEqual([1, "t", "asc", "42"])
  })

  it("describes every error without revealing the token", () => {
    const errors: ReadonlyArray<PageToken.PageTokenError> = ["malformed", "bad_signature", "other_tenant", "other_binding"]
    expect(errors.map(PageToken.describe)).toStrictEqual([
      "page_token is not a token this service issued",
      "page_token is not a token this service issued",
      "page_token was issued for another organization",
      "page_token was issued for another list"
    ])
  })
})
