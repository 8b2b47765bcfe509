/**
 * The baseline must do costline's work in costline's formats, or `ours / baseline` compares
 * different things: its page tokens open costline's and costline opens its, and its ETags are
 * costline's ETags.
 */
import { ETag, InsightETag, PageToken } from "@costline/core"
import { Either } from "effect"
import { describe, expect, it } from "vitest"
import { pageTokens } from "../baseline/auth.mjs"
import { canonicalJson, etagOf } from "../baseline/routes/insights.mjs"
import type { Store } from "../baseline/stores.mjs"
import { insight } from "../lib/Seed.js"

const SECRET = "bench-secret"

/** A store that answers the installation-secret query, and nothing else. */
const secretStore: Store = {
  dialect: "sqlite",
  all: async () => [{ cursor_secret: SECRET }],
  values: async () => [],
  transaction: () => Promise.reject(new Error("no transactions here")),
  close: async () => {}
}

describe("baseline page tokens", () => {
  it("are costline's tokens, byte for byte", async () => {
    const tokens = await pageTokens(secretStore)
    // The audit export's tokens are bound to their order.
    const ours = PageToken.encode(SECRET, { tenant: "acme", binding: "asc", position: "42" })
    expect(tokens.encode("acme", "asc", "42")).toBe(ours)
  })

  it("open what costline issues, and costline opens theirs", async () => {
    const tokens = await pageTokens(secretStore)
    const issued = PageToken.encode(SECRET, { tenant: "acme", binding: "insights:create_time:desc", position: "[\"t\",\"id\"]" })
    expect(tokens.open(issued, "acme", "insights:create_time:desc")).toBe("[\"t\",\"id\"]")
    const theirs = tokens.encode("acme", "asc", "7:9")
    expect(PageToken.decode(SECRET, theirs, { tenant: "acme", binding: "asc" })).toEqual(
      Either.right({ tenant: "acme", binding: "asc", position: "7:9" })
    )
  })

  it("refuse a forged signature, another tenant and another list", async () => {
    const tokens = await pageTokens(secretStore)
    const token = tokens.encode("acme", "asc", "42")
    const forged = `${token.slice(0, -2)}${token.endsWith("AA") ? "BB" : "AA"}`
    expect(tokens.open(forged, "acme", "asc")).toBeUndefined()
    expect(tokens.open(token, "other", "asc")).toBeUndefined()
    expect(tokens.open(token, "acme", "desc")).toBeUndefined()
  })
})

describe("baseline ETags", () => {
  it("hash JSON with sorted keys, as costline does", () => {
    const value = { b: [1, { d: null, c: "x" }], a: true, skipped: undefined }
    expect(canonicalJson(value)).toBe(ETag.canonicalJson(value))
    expect(canonicalJson(value)).toBe("{\"a\":true,\"b\":[1,{\"c\":\"x\",\"d\":null}]}")
  })

  it("are the ETag costline computes for an insight's state", () => {
    for (let n = 0; n < 20; n++) {
      const seeded = insight(n)
      expect(etagOf(seeded)).toBe(InsightETag.forInsight(seeded))
      expect(etagOf(seeded)).toBe(seeded.etag)
    }
  })
})
