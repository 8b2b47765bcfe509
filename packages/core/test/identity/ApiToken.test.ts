import { describe, expect, it } from "@effect/vitest"
import { FastCheck as fc } from "effect"
import { createHash } from "node:crypto"
import * as ApiToken from "../../src/identity/ApiToken.js"

const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
const kind = fc.constantFrom("api_key" as const, "session" as const)

/** A deterministic byte source cycling through `bytes`, standing in for randomBytes. */
const cycling = (bytes: ReadonlyArray<number>) => {
  let next = 0
  return (n: number) => Uint8Array.from({ length: n }, () => bytes[next++ % bytes.length]!)
}
/** Byte streams the generator can always finish with: at least one byte below the rejection limit. */
const byteStream = fc.array(fc.integer({ min: 0, max: 255 }), { minLength: 1, maxLength: 80 })
  .filter((bytes) => bytes.some((b) => b < 248))

const token = fc.tuple(kind, byteStream).map(([k, bytes]) => ApiToken.generate(k, cycling(bytes)))

describe("ApiToken", () => {
  it.prop("a generated token parses as its kind", [kind, byteStream], ([k, bytes]) => {
    const generated = ApiToken.generate(k, cycling(bytes))
    expect(generated).toMatch(/^(clk|cls)_[0-9A-Za-z]{36}$/)
    expect(ApiToken.parse(generated)).toBe(k)
  })

  it("tokens of the default random source parse and differ", () => {
    const tokens = Array.from({ length: 20 }, () => ApiToken.generate("api_key"))
    expect(tokens.map(ApiToken.parse)).toStrictEqual(tokens.map(() => "api_key"))
    expect(new Set(tokens).size).toBe(tokens.length)
  })

  it("prefixes api keys with clk_ and sessions with cls_", () => {
    expect(ApiToken.generate("api_key").slice(0, 4)).toBe("clk_")
    expect(ApiToken.generate("session").slice(0, 4)).toBe("cls_")
  })

  it("skips bytes of 248 and above so that every character is equally likely", () => {
    // 250 % 62 would be "2"; only the 1s may reach the body.
    const generated = ApiToken.generate("api_key", cycling([250, 1]))
    expect(generated.slice(4, 34)).toBe("1".repeat(30))
  })

  it.prop(
    "any one-character change fails the checksum",
    [token, fc.nat(), fc.constantFrom(...`${BASE62}_-`.split(""))],
    ([t, index, replacement]) => {
      const at = index % t.length
      fc.pre(t[at] !== replacement)
      expect(ApiToken.parse(t.slice(0, at) + replacement + t.slice(at + 1))).toBeUndefined()
    },
    { fastCheck: { numRuns: 2000 } }
  )

  it.prop("a token with its kind prefix swapped is rejected", [token], ([t]) => {
    const swapped = (t.startsWith("clk_") ? "cls_" : "clk_") + t.slice(4)
    expect(ApiToken.parse(swapped)).toBeUndefined()
  })

  it.prop("no string of another shape parses", [fc.string({ unit: "binary" })], ([text]) => {
    fc.pre(!/^(clk|cls)_[0-9A-Za-z]{36}$/.test(text))
    expect(ApiToken.parse(text)).toBeUndefined()
  })

  it.each(["", "clk_", "clk_short", "xyz_" + "a".repeat(36), " clk_" + "a".repeat(36)])(
    "rejects the malformed token %j",
    (text) => expect(ApiToken.parse(text)).toBeUndefined()
  )

  it("computes the standard CRC-32 check value", () => {
    expect(ApiToken.crc32("123456789")).toBe(0xcbf43926)
    expect(ApiToken.crc32("")).toBe(0)
    // Of the text's UTF-8 bytes, a lone surrogate as U+FFFD (values of the table loop it replaced).
    expect(ApiToken.crc32("é")).toBe(0x0e048d3e)
    expect(ApiToken.crc32("clk_\u{1F600}")).toBe(0x8b29937b)
    expect(ApiToken.crc32("\ud800x")).toBe(0x6eef1ea4)
  })

  it.prop("hashes to the lower-case hex SHA-256 of the whole token", [token], ([t]) => {
    expect(ApiToken.hash(t)).toMatch(/^[0-9a-f]{64}$/)
    expect(ApiToken.hash(t)).toBe(createHash("sha256").update(t).digest("hex"))
  })

  it("hashes stably (FIPS 180-2 test vector)", () => {
    expect(ApiToken.hash("abc")).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
  })

  it.prop("shows the first eight characters as the display prefix", [token], ([t]) => {
    const shown = ApiToken.displayPrefix(t)
    expect(shown).toHaveLength(8)
    expect(t.startsWith(shown)).toBe(true)
  })
})
