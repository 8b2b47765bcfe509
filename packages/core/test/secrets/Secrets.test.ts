import { describe, expect, it } from "@effect/vitest"
import { ConfigProvider, Effect, Layer, Logger } from "effect"
import { randomBytes } from "node:crypto"
import type { SealedSecret } from "../../src/secrets/Envelope.js"
import { Secrets } from "../../src/secrets/Secrets.js"
import { masterKey, ringOf } from "./rings.js"

const aad = { tenant: "org-1", recordId: "record-1" }
const key = randomBytes(32)

const withEnv = (env: Record<string, string>) => Layer.setConfigProvider(ConfigProvider.fromMap(new Map(Object.entries(env))))

/** Seals a text through whatever Secrets the layer builds. */
const sealWith = <E>(layer: Layer.Layer<Secrets, E>) =>
  Effect.flatMap(Secrets, (secrets) => secrets.seal("the key", aad)).pipe(Effect.provide(layer))

const openWith = <E>(layer: Layer.Layer<Secrets, E>, sealed: SealedSecret) =>
  Effect.flatMap(Secrets, (secrets) => secrets.open(sealed, aad)).pipe(Effect.provide(layer))

/** Runs `effect` and returns what it logged. */
const captureLogs = <A, E>(effect: Effect.Effect<A, E>) =>
  Effect.gen(function*() {
    const lines: Array<string> = []
    const logger = Logger.make(({ logLevel, message }) => lines.push(`${logLevel.label} ${[message].flat().join(" ")}`))
    yield* effect.pipe(Effect.provide(Logger.add(logger)))
    return lines
  })

describe("Secrets", () => {
  const fromKeys = Secrets.layerFromKeys(ringOf(masterKey("default", key)))

  it.effect("seals and opens through the service", () =>
    Effect.gen(function*() {
      const sealed = yield* sealWith(fromKeys)
      expect(yield* openWith(fromKeys, sealed)).toBe("the key")
      const secrets = yield* Effect.provide(Secrets, fromKeys)
      const failure = yield* Effect.flip(secrets.open(sealed, { ...aad, recordId: "record-2" }))
      expect(failure._tag).toBe("SecretUnreadable")
      expect(failure.reason).toBe("authentication_failed")
    }))

  it.effect("re-wraps through the service", () =>
    Effect.gen(function*() {
      const sealed = yield* sealWith(fromKeys)
      const rotated = Secrets.layerFromKeys(ringOf(masterKey("next"), masterKey("default", key)))
      const rewrapped = yield* Effect.flatMap(Secrets, (secrets) => secrets.rewrap(sealed, aad)).pipe(Effect.provide(rotated))
      expect(rewrapped.key_id).toBe("next")
      expect(yield* openWith(rotated, rewrapped)).toBe("the key")
    }))

  describe("layerFromConfig", () => {
    it.effect("uses the configured key", () =>
      Effect.gen(function*() {
        const configured = Secrets.layerFromConfig.pipe(Layer.provide(withEnv({ COSTLINE_SECRET_KEY: key.toString("hex") })))
        const sealed = yield* sealWith(configured)
        expect(sealed.key_id).toBe("default")
        expect(yield* openWith(fromKeys, sealed)).toBe("the key")
      }))

    it.effect("fails with a clear ConfigError when no key is set", () =>
      Effect.gen(function*() {
        const error = yield* Effect.flip(sealWith(Secrets.layerFromConfig.pipe(Layer.provide(withEnv({})))))
        expect(error._op).toBe("MissingData")
        expect(String(error)).toContain("COSTLINE_SECRET_KEY (or COSTLINE_SECRET_KEYS) must be set")
      }))
  })

  describe("layerEphemeral", () => {
    it.effect("works within the process and warns that its secrets will not survive a restart", () =>
      Effect.gen(function*() {
        const logs = yield* captureLogs(Effect.gen(function*() {
          const sealed = yield* sealWith(Secrets.layerEphemeral)
          expect(sealed.key_id).toMatch(/^ephemeral-[0-9a-f]{8}$/)
        }))
        expect(logs).toHaveLength(1)
        expect(logs[0]).toMatch(/^WARN COSTLINE_SECRET_KEY is not set: .*ephemeral-[0-9a-f]{8}.*cannot be opened after a restart/)
      }))

    it.effect("draws a new key each time: another process cannot open what this one sealed", () =>
      Effect.gen(function*() {
        const layer = Secrets.layerEphemeral
        const sealed = yield* sealWith(layer)
        const secrets = yield* Effect.provide(Secrets, layer)
        expect(yield* secrets.open(sealed, aad).pipe(Effect.flip, Effect.map((error) => error.reason))).toBe("unknown_key")
      }))
  })

  describe("layerFromConfigOrEphemeral", () => {
    it.effect("prefers the configured key", () =>
      Effect.gen(function*() {
        const layer = Secrets.layerFromConfigOrEphemeral.pipe(Layer.provide(withEnv({ COSTLINE_SECRET_KEYS: `k1:${key.toString("base64")}` })))
        expect((yield* sealWith(layer)).key_id).toBe("k1")
      }))

    it.effect("falls back to an ephemeral key when none is set", () =>
      Effect.gen(function*() {
        const layer = Secrets.layerFromConfigOrEphemeral.pipe(Layer.provide(withEnv({})))
        expect((yield* sealWith(layer)).key_id).toMatch(/^ephemeral-/)
      }))

    it.effect("still fails on a malformed key rather than silently going ephemeral", () =>
      Effect.gen(function*() {
        const layer = Secrets.layerFromConfigOrEphemeral.pipe(Layer.provide(withEnv({ COSTLINE_SECRET_KEY: "changeme" })))
        expect((yield* Effect.flip(sealWith(layer)))._op).toBe("InvalidData")
      }))
  })
})
