/**
 * Envelope encryption with AES-256-GCM. Each secret gets a fresh random data key; the data key is
 * wrapped (also AES-256-GCM) by a master key whose id travels with the ciphertext, so master keys
 * can rotate by re-wrapping 60 bytes instead of re-encrypting every secret. Both layers
 * authenticate the tenant and record id (the AAD): a sealed secret copied onto another record,
 * or into another tenant, does not open.
 */
import { Either, Redacted, Schema } from "effect"
import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto"
import type { KeyRing, MasterKey } from "./MasterKeys.js"

/**
 * @since 0.1.0
 * @category constants
 */
export const SEALED_SECRET_VERSION = 1

const CIPHER = "aes-256-gcm"
const DATA_KEY_BYTES = 32
const IV_BYTES = 12
const TAG_BYTES = 16

const Base64 = Schema.String.pipe(Schema.pattern(/^[A-Za-z0-9+/]*={0,2}$/))

/**
 * What the store keeps: plain JSON, every binary field base64.
 * @since 0.1.0
 * @category models
 */
export class SealedSecret extends Schema.Class<SealedSecret>("SealedSecret")({
  /** An integer, not a literal, so that a newer format fails as `unsupported_version`, not as a parse error. */
  version: Schema.Int,
  key_id: Schema.String,
  /** iv ‖ encrypted data key ‖ tag, under the master key `key_id`. */
  wrapped_key: Base64,
  iv: Base64,
  tag: Base64,
  ciphertext: Base64
}) {}

/**
 * What a secret is bound to.
 * @since 0.1.0
 * @category models
 */
export interface SecretAad {
  readonly tenant: string
  readonly recordId: string
}

/**
 * @since 0.1.0
 * @category models
 */
export type UnreadableReason = "unknown_key" | "unsupported_version" | "malformed" | "authentication_failed"

const reasonText: Record<UnreadableReason, string> = {
  unknown_key: "its master key is not configured",
  unsupported_version: "it was sealed in a newer format",
  malformed: "it is malformed",
  authentication_failed: "it was altered, or belongs to another record, or its master key changed"
}

/**
 * A sealed secret that cannot be opened. Says why, never what.
 * @since 0.1.0
 * @category errors
 */
export class SecretUnreadable extends Schema.TaggedError<SecretUnreadable>()("SecretUnreadable", {
  key_id: Schema.String,
  reason: Schema.Literal("unknown_key", "unsupported_version", "malformed", "authentication_failed")
}) {
  override get message() {
    return `secret sealed under key '${this.key_id}' cannot be opened: ${reasonText[this.reason]}`
  }
}

// JSON arrays of strings are an unambiguous encoding; the labels keep the two layers' AADs apart.
const dataAad = (aad: SecretAad) => Buffer.from(JSON.stringify(["costline.secret.v1", aad.tenant, aad.recordId]))
const keyAad = (keyId: string, aad: SecretAad) =>
  Buffer.from(JSON.stringify(["costline.secret-key.v1", keyId, aad.tenant, aad.recordId]))

const encrypt = (key: Buffer, plaintext: Buffer, aad: Buffer) => {
  const iv = randomBytes(IV_BYTES)
  const cipher = createCipheriv(CIPHER, key, iv).setAAD(aad)
  const ciphertext = Buffer.concat([cipher.update(plaintext), cipher.final()])
  return { iv, ciphertext, tag: cipher.getAuthTag() }
}

/** Throws when authentication fails; callers turn that into SecretUnreadable. */
const decrypt = (key: Buffer, parts: { iv: Buffer; ciphertext: Buffer; tag: Buffer }, aad: Buffer) => {
  const decipher = createDecipheriv(CIPHER, key, parts.iv).setAAD(aad).setAuthTag(parts.tag)
  return Buffer.concat([decipher.update(parts.ciphertext), decipher.final()])
}

const wrap = (master: MasterKey, dataKey: Buffer, aad: SecretAad): string => {
  const { iv, ciphertext, tag } = encrypt(Redacted.value(master.key), dataKey, keyAad(master.id, aad))
  return Buffer.concat([iv, ciphertext, tag]).toString("base64")
}

const unwrap = (ring: KeyRing, sealed: SealedSecret, aad: SecretAad): Either.Either<Buffer, SecretUnreadable> => {
  const unreadable = (reason: UnreadableReason) => new SecretUnreadable({ key_id: sealed.key_id, reason })
  if (sealed.version !== SEALED_SECRET_VERSION) return Either.left(unreadable("unsupported_version"))
  const master = ring.byId.get(sealed.key_id)
  if (master === undefined) return Either.left(unreadable("unknown_key"))
  const wrapped = Buffer.from(sealed.wrapped_key, "base64")
  if (wrapped.length !== IV_BYTES + DATA_KEY_BYTES + TAG_BYTES) return Either.left(unreadable("malformed"))
  const parts = {
    iv: wrapped.subarray(0, IV_BYTES),
    ciphertext: wrapped.subarray(IV_BYTES, IV_BYTES + DATA_KEY_BYTES),
    tag: wrapped.subarray(IV_BYTES + DATA_KEY_BYTES)
  }
  return Either.try({
    try: () => decrypt(Redacted.value(master.key), parts, keyAad(master.id, aad)),
    catch: () => unreadable("authentication_failed")
  })
}

/** Runs `use` with a data key, then wipes the key from memory. */
const withDataKey = <A>(dataKey: Buffer, use: (key: Buffer) => A): A => {
  try {
    return use(dataKey)
  } finally {
    dataKey.fill(0)
  }
}

/**
 * Seals UTF-8 text under the ring's current master key.
 * @since 0.1.0
 * @category utils
 */
export const seal = (ring: KeyRing, plaintext: string, aad: SecretAad): SealedSecret =>
  withDataKey(randomBytes(DATA_KEY_BYTES), (dataKey) => {
    const { iv, ciphertext, tag } = encrypt(dataKey, Buffer.from(plaintext, "utf8"), dataAad(aad))
    return new SealedSecret({
      version: SEALED_SECRET_VERSION,
      key_id: ring.current.id,
      wrapped_key: wrap(ring.current, dataKey, aad),
      iv: iv.toString("base64"),
      tag: tag.toString("base64"),
      ciphertext: ciphertext.toString("base64")
    })
  })

/**
 * @since 0.1.0
 * @category utils
 */
export const open = (ring: KeyRing, sealed: SealedSecret, aad: SecretAad): Either.Either<string, SecretUnreadable> =>
  Either.flatMap(unwrap(ring, sealed, aad), (dataKey) =>
    withDataKey(dataKey, (key) => {
      const parts = {
        iv: Buffer.from(sealed.iv, "base64"),
        tag: Buffer.from(sealed.tag, "base64"),
        ciphertext: Buffer.from(sealed.ciphertext, "base64")
      }
      if (parts.iv.length !== IV_BYTES || parts.tag.length !== TAG_BYTES) {
        return Either.left(new SecretUnreadable({ key_id: sealed.key_id, reason: "malformed" }))
      }
      return Either.try({
        try: () => decrypt(key, parts, dataAad(aad)).toString("utf8"),
        catch: () => new SecretUnreadable({ key_id: sealed.key_id, reason: "authentication_failed" })
      })
    }))

/**
 * The same secret with its data key wrapped by the current master key (rotation); already
 * current → returned as is. The ciphertext is not touched, so it is checked only when opened.
 * @since 0.1.0
 * @category utils
 */
export const rewrap = (ring: KeyRing, sealed: SealedSecret, aad: SecretAad): Either.Either<SealedSecret, SecretUnreadable> => {
  if (sealed.key_id === ring.current.id) return Either.right(sealed)
  return Either.map(unwrap(ring, sealed, aad), (dataKey) =>
    withDataKey(dataKey, (key) =>
      new SealedSecret({ ...sealed, key_id: ring.current.id, wrapped_key: wrap(ring.current, key, aad) })))
}
