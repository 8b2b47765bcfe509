import { describe, expect, it } from "@effect/vitest"
import { Either, FastCheck as fc, Schema } from "effect"
import * as Envelope from "../../src/secrets/Envelope.js"
import { masterKey, ringOf } from "./rings.js"

const aad = { tenant: "org-1", recordId: "9f1c2d3e-0000-4000-8000-000000000001" }
const PLAINTEXT = "-----BEGIN PRIVATE KEY-----\nMIIEvQ...\n-----END PRIVATE KEY-----\n"

const oldKey = masterKey("2024")
const newKey = masterKey("2025")
const ring = ringOf(oldKey)

const reasonOf = (result: Either.Either<unknown, Envelope.SecretUnreadable>) =>
  Either.isLeft(result) ? result.left.reason : "opened"

const binaryFields = ["wrapped_key", "iv", "tag", "ciphertext"] as const

/** The same sealed secret with one bit of one byte of `field` flipped. */
const flipped = (sealed: Envelope.SealedSecret, field: (typeof binaryFields)[number], index: number, bit: number) => {
  const bytes = Buffer.from(sealed[field], "base64")
  bytes[index % bytes.length]! ^= 1 << bit
  return new Envelope.SealedSecret({ ...sealed, [field]: bytes.toString("base64") })
}

describe("Envelope", () => {
  it("opens what it sealed", () => {
    const sealed = Envelope.seal(ring, PLAINTEXT, aad)
    expect(sealed.version).toBe(Envelope.SEALED_SECRET_VERSION)
    expect(sealed.key_id).toBe("2024")
    expect(Envelope.open(ring, sealed, aad)).toStrictEqual(Either.right(PLAINTEXT))
  })

  it.prop(
    "round-trips any text under any tenant and record",
    [fc.string({ unit: "binary" }), fc.string({ unit: "binary" }), fc.string({ unit: "binary" })],
    ([plaintext, tenant, recordId]) => {
      const bound = { tenant, recordId }
      expect(Envelope.open(ring, Envelope.seal(ring, plaintext, bound), bound)).toStrictEqual(Either.right(plaintext))
    }
  )

  it("never stores the plaintext, and uses a fresh data key and iv for every seal", () => {
    const first = Envelope.seal(ring, PLAINTEXT, aad)
    const second = Envelope.seal(ring, PLAINTEXT, aad)
    expect(JSON.stringify(first)).not.toContain("MIIEvQ")
    expect(Buffer.from(first.ciphertext, "base64").toString("utf8")).not.toContain("MIIEvQ")
    expect(second.wrapped_key).not.toBe(first.wrapped_key)
    expect(second.iv).not.toBe(first.iv)
    expect(second.ciphertext).not.toBe(first.ciphertext)
  })

  it("survives a trip through JSON, as a store keeps it", () => {
    const codec = Schema.parseJson(Envelope.SealedSecret)
    const stored = Schema.encodeSync(codec)(Envelope.seal(ring, PLAINTEXT, aad))
    const parsed: unknown = JSON.parse(stored)
    expect(Object.keys(parsed as object).sort()).toStrictEqual(["ciphertext", "iv", "key_id", "tag", "version", "wrapped_key"])
    expect(Envelope.open(ring, Schema.decodeSync(codec)(stored), aad)).toStrictEqual(Either.right(PLAINTEXT))
  })

  describe("refuses to open", () => {
    const sealed = Envelope.seal(ring, PLAINTEXT, aad)

    it.prop(
      "a secret with any bit of any binary field flipped",
      [fc.constantFrom(...binaryFields), fc.nat(), fc.integer({ min: 0, max: 7 })],
      ([field, index, bit]) => {
        expect(reasonOf(Envelope.open(ring, flipped(sealed, field, index, bit), aad))).toBe("authentication_failed")
      }
    )

    it.each(binaryFields)("a secret with the first byte of %s flipped", (field) => {
      expect(reasonOf(Envelope.open(ring, flipped(sealed, field, 0, 0), aad))).toBe("authentication_failed")
    })

    it("a secret under another tenant or another record", () => {
      expect(reasonOf(Envelope.open(ring, sealed, { ...aad, tenant: "org-2" }))).toBe("authentication_failed")
      expect(reasonOf(Envelope.open(ring, sealed, { ...aad, recordId: "another" }))).toBe("authentication_failed")
    })

    it("a secret whose AAD only concatenates to the same text", () => {
      const bound = Envelope.seal(ring, PLAINTEXT, { tenant: "a:b", recordId: "c" })
      expect(reasonOf(Envelope.open(ring, bound, { tenant: "a", recordId: "b:c" }))).toBe("authentication_failed")
    })

    it("a secret under a master key of the same id but other bytes", () => {
      expect(reasonOf(Envelope.open(ringOf(masterKey("2024")), sealed, aad))).toBe("authentication_failed")
    })

    it("a secret whose key id is changed or unknown", () => {
      const renamed = new Envelope.SealedSecret({ ...sealed, key_id: "2025" })
      expect(reasonOf(Envelope.open(ring, renamed, aad))).toBe("unknown_key")
      expect(reasonOf(Envelope.open(ringOf(oldKey, newKey), renamed, aad))).toBe("authentication_failed")
    })

    it("a secret from a newer format", () => {
      expect(reasonOf(Envelope.open(ring, new Envelope.SealedSecret({ ...sealed, version: 2 }), aad))).toBe("unsupported_version")
    })

    it.each(binaryFields)("a secret whose %s is cut short", (field) => {
      const short = Buffer.from(sealed[field], "base64").subarray(1).toString("base64")
      const reason = reasonOf(Envelope.open(ring, new Envelope.SealedSecret({ ...sealed, [field]: short }), aad))
      // A shorter ciphertext is still well-formed GCM input; only its tag can tell.
      expect(reason).toBe(field === "ciphertext" ? "authentication_failed" : "malformed")
    })

    it("and names the key, never the secret", () => {
      const failure = Either.flip(Envelope.open(ringOf(newKey), sealed, aad)).pipe(Either.getOrThrow)
      expect(failure.message).toBe("secret sealed under key '2024' cannot be opened: its master key is not configured")
    })
  })

  describe("rotation", () => {
    const sealedUnderOld = Envelope.seal(ring, PLAINTEXT, aad)
    const rotated = ringOf(newKey, oldKey)

    it("seals with the first key and still opens with any other", () => {
      expect(Envelope.seal(rotated, PLAINTEXT, aad).key_id).toBe("2025")
      expect(Envelope.open(rotated, sealedUnderOld, aad)).toStrictEqual(Either.right(PLAINTEXT))
    })

    it("re-wraps an old secret under the current key without touching its ciphertext", () => {
      const rewrapped = Either.getOrThrow(Envelope.rewrap(rotated, sealedUnderOld, aad))
      expect(rewrapped.key_id).toBe("2025")
      expect([rewrapped.iv, rewrapped.tag, rewrapped.ciphertext]).toStrictEqual([
        sealedUnderOld.iv,
        sealedUnderOld.tag,
        sealedUnderOld.ciphertext
      ])
      // Once every secret is re-wrapped, the old key can go.
      expect(Envelope.open(ringOf(newKey), rewrapped, aad)).toStrictEqual(Either.right(PLAINTEXT))
    })

    it("leaves a secret already under the current key as it is", () => {
      const current = Envelope.seal(rotated, PLAINTEXT, aad)
      expect(Envelope.rewrap(rotated, current, aad)).toStrictEqual(Either.right(current))
    })

    it("refuses to re-wrap under the wrong AAD", () => {
      expect(reasonOf(Envelope.rewrap(rotated, sealedUnderOld, { ...aad, recordId: "other" }))).toBe("authentication_failed")
    })
  })
})
