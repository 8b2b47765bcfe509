import { describe, expect, it } from "@effect/vitest"
import { ConfigProvider, Effect, Either, Option, Redacted } from "effect"
import { randomBytes } from "node:crypto"
import * as MasterKeys from "../../src/secrets/MasterKeys.js"

const key = randomBytes(32)
const other = randomBytes(32)
const base64 = key.toString("base64")

const idsOf = (ring: MasterKeys.KeyRing) => [...ring.byId.keys()]
const bytesOf = (ring: MasterKeys.KeyRing, id: string) => Redacted.value(ring.byId.get(id)!.key)
const problemOf = <A>(result: Either.Either<A, string>) => Either.flip(result).pipe(Either.getOrThrow)

const configured = (env: Record<string, string>) =>
  MasterKeys.configuredKeyRing.pipe(Effect.withConfigProvider(ConfigProvider.fromMap(new Map(Object.entries(env)))))

describe("MasterKeys.parseKey", () => {
  it.each([
    ["hex", key.toString("hex")],
    ["upper-case hex", key.toString("hex").toUpperCase()],
    ["base64", base64],
    ["base64 without padding", base64.replace(/=$/, "")],
    ["URL-safe base64", key.toString("base64url")],
    ["base64 with surrounding white space", ` ${base64}\n`]
  ])("reads %s", (_, text) => {
    expect(MasterKeys.parseKey(text)).toStrictEqual(Either.right(key))
  })

  it.each([
    ["31 bytes", randomBytes(31).toString("base64")],
    ["33 bytes", randomBytes(33).toString("base64")],
    ["63 hex digits", key.toString("hex").slice(1)],
    ["a passphrase", "correct horse battery staple"],
    ["nothing", ""]
  ])("refuses %s, without quoting it", (_, text) => {
    const problem = problemOf(MasterKeys.parseKey(text))
    expect(problem).toContain("must be 32 bytes")
    if (text.length > 0) expect(problem).not.toContain(text)
  })
})

describe("MasterKeys.parseKeyList", () => {
  it("makes the first key current and keeps every key for opening", () => {
    const ring = Either.getOrThrow(MasterKeys.parseKeyList(`new:${base64}, old : ${other.toString("hex")}`))
    expect(ring.current.id).toBe("new")
    expect(idsOf(ring)).toStrictEqual(["new", "old"])
    expect(bytesOf(ring, "new")).toStrictEqual(key)
    expect(bytesOf(ring, "old")).toStrictEqual(other)
  })

  it.each([
    ["an entry without a key id", `${base64}`, "entry 1 must be written id:key"],
    ["a bad key", `a:${base64},b:nope`, "entry 2: key must be 32 bytes"],
    ["a repeated id", `a:${base64},a:${other.toString("base64")}`, "entry 2: key id is already used by an earlier entry"],
    ["an empty id", `:${base64}`, "entry 1: key id must be 1-64 letters"],
    ["an id with a space", `my key:${base64}`, "entry 1: key id must be 1-64 letters"],
    ["a trailing comma", `a:${base64},`, "entry 2 must be written id:key"]
  ])("refuses %s", (_, text, message) => {
    const problem = problemOf(MasterKeys.parseKeyList(text))
    expect(problem).toContain(message)
    expect(problem).not.toContain(base64)
  })

  it("never quotes an id, which may be a key pasted in the wrong place", () => {
    const hexKey = key.toString("hex")
    for (const text of [`${hexKey}:default`, `${base64}:${hexKey}`, `${hexKey}:${base64},${hexKey}:${base64}`]) {
      const problem = problemOf(MasterKeys.parseKeyList(text))
      expect(problem).not.toContain(hexKey)
      expect(problem).not.toContain(base64)
    }
  })
})

describe("MasterKeys.configuredKeyRing", () => {
  it.effect("is None when neither variable is set", () =>
    Effect.gen(function*() {
      expect(yield* configured({})).toStrictEqual(Option.none())
    }))

  it.effect("reads COSTLINE_SECRET_KEY as the key 'default'", () =>
    Effect.gen(function*() {
      const ring = Option.getOrThrow(yield* configured({ COSTLINE_SECRET_KEY: base64 }))
      expect(idsOf(ring)).toStrictEqual(["default"])
      expect(bytesOf(ring, "default")).toStrictEqual(key)
    }))

  it.effect("reads COSTLINE_SECRET_KEYS as a ring", () =>
    Effect.gen(function*() {
      const ring = Option.getOrThrow(yield* configured({ COSTLINE_SECRET_KEYS: `b:${base64},a:${other.toString("base64")}` }))
      expect(ring.current.id).toBe("b")
      expect(idsOf(ring)).toStrictEqual(["b", "a"])
    }))

  it.effect.each<readonly [string, Record<string, string>, string]>([
    ["both variables", { COSTLINE_SECRET_KEY: base64, COSTLINE_SECRET_KEYS: `a:${base64}` }, "set only one of"],
    ["a malformed key", { COSTLINE_SECRET_KEY: "changeme" }, "COSTLINE_SECRET_KEY must be 32 bytes"],
    ["a malformed ring", { COSTLINE_SECRET_KEYS: `a:${base64},b` }, "COSTLINE_SECRET_KEYS entry 2 must be written id:key"]
  ])("fails with a ConfigError for %s", ([_, env, message]) =>
    Effect.gen(function*() {
      const error = yield* Effect.flip(configured(env))
      expect(error._op).toBe("InvalidData")
      expect(String(error)).toContain(message)
      expect(String(error)).not.toContain(base64)
    }))
})
