/**
 * Warehouse private keys for key-pair authentication: normalise what was pasted, check that it is
 * an RSA key of at least 2048 bits which the passphrase (if any) opens, and compute the public key
 * fingerprint the warehouse shows for it. Error messages never quote the key or the passphrase.
 */
import { Either } from "effect"
import { createHash, createPrivateKey, createPublicKey, type KeyObject } from "node:crypto"
import { ValidationFailed } from "../shared/Errors.js"
import { keyDerivationWork, MAX_KEY_DERIVATION_WORK } from "./internal/KeyDerivationWork.js"
import * as Pem from "./internal/Pem.js"

/**
 * @since 0.1.0
 * @category constants
 */
export const MIN_RSA_BITS = 2048

/**
 * Room for an encrypted 8192-bit key twice over, while bounding the work spent on one input.
 * @since 0.1.0
 * @category constants
 */
export const MAX_PEM_LENGTH = 16_384

/**
 * @since 0.1.0
 * @category models
 */
export interface PrivateKeyInput {
  readonly privateKey: string
  /** Absent, null and "" all mean "no passphrase" (v1 clients may send "" with an unencrypted key). */
  readonly passphrase?: string | null | undefined
}

/**
 * @since 0.1.0
 * @category models
 */
export interface ValidatedPrivateKey {
  /** The key as canonical PEM; still encrypted if it came encrypted. */
  readonly pem: string
  readonly encrypted: boolean
  readonly bits: number
  readonly publicKeyFingerprint: string
  /**
   * The key re-exported as unencrypted PKCS#8 PEM, whatever form it came in: what is sealed for
   * storage, so the passphrase never has to be kept.
   */
  readonly pkcs8: string
}

const keyIssue = (issue: string, message: string) => ValidationFailed.single("private_key", issue, message)
const passphraseIssue = (issue: string, message: string) =>
  ValidationFailed.single("private_key_passphrase", issue, message)

const PKCS8 = "PRIVATE KEY"
const PKCS8_ENCRYPTED = "ENCRYPTED PRIVATE KEY"
const PKCS1 = "RSA PRIVATE KEY"

const pemProblemMessage: Record<Pem.PemProblem, string> = {
  not_pem: "private_key must be a PEM key: a -----BEGIN ...----- line, the base64 body, a matching -----END ...----- line",
  mismatched_labels: "private_key's BEGIN and END lines name different key types",
  bad_body: "private_key's PEM body is not valid base64"
}

const readPem = (text: string): Either.Either<Pem.PemBlock, ValidationFailed> => {
  if (text.trim().length === 0) return Either.left(keyIssue("empty", "private_key is empty"))
  if (text.length > MAX_PEM_LENGTH) {
    return Either.left(keyIssue("too_long", `private_key is longer than ${MAX_PEM_LENGTH} characters`))
  }
  return Either.mapLeft(Pem.parse(text), (problem) => keyIssue("malformed", pemProblemMessage[problem]))
}

const isLegacyEncryptionHeader = (headers: ReadonlyArray<Pem.PemHeader>) =>
  headers.length === 2 &&
  headers[0]!.name === "Proc-Type" && headers[0]!.value === "4,ENCRYPTED" &&
  headers[1]!.name === "DEK-Info" && /^[A-Z0-9-]+,[0-9A-Fa-f]+$/.test(headers[1]!.value)

/** Whether the block is encrypted, read from its label (PKCS#8) or its headers (legacy PKCS#1). */
const encryptionOf = (block: Pem.PemBlock): Either.Either<boolean, ValidationFailed> => {
  if (block.label !== PKCS8 && block.label !== PKCS8_ENCRYPTED && block.label !== PKCS1) {
    return Either.left(keyIssue(
      "unsupported_format",
      `private_key is a '${block.label}'; expected PKCS#8 (BEGIN PRIVATE KEY or BEGIN ENCRYPTED PRIVATE KEY) ` +
        "or PKCS#1 (BEGIN RSA PRIVATE KEY)"
    ))
  }
  if (block.headers.length === 0) return Either.right(block.label === PKCS8_ENCRYPTED)
  if (block.label === PKCS1 && isLegacyEncryptionHeader(block.headers)) return Either.right(true)
  return Either.left(keyIssue("malformed", "private_key has PEM headers other than Proc-Type and DEK-Info"))
}

/**
 * Refuses PKCS#8 encryption we cannot read or that would take too long to try (see
 * KeyDerivationWork). Legacy PKCS#1 encryption derives its key with one MD5 round: nothing to bound.
 */
const checkDerivationWork = (block: Pem.PemBlock): Either.Either<void, ValidationFailed> => {
  if (block.label !== PKCS8_ENCRYPTED) return Either.void
  const work = keyDerivationWork(block.der)
  if (work === undefined) {
    return Either.left(keyIssue("unsupported_encryption", "private_key is encrypted with a scheme that is not supported"))
  }
  if (work > MAX_KEY_DERIVATION_WORK) {
    return Either.left(keyIssue(
      "unsupported_encryption",
      `private_key's encryption asks for more key-derivation work than ${MAX_KEY_DERIVATION_WORK}; ` +
        "re-encrypt it with standard settings"
    ))
  }
  return Either.void
}

const load = (pem: string, passphrase: string | undefined, encrypted: boolean): Either.Either<KeyObject, ValidationFailed> =>
  Either.try({
    try: () => createPrivateKey(passphrase === undefined ? { key: pem, format: "pem" } : { key: pem, format: "pem", passphrase }),
    // OpenSSL's reasons (bad decrypt, unsupported, ...) add nothing a caller can act on.
    catch: () =>
      encrypted
        ? passphraseIssue("incorrect", "private_key_passphrase does not decrypt private_key")
        : keyIssue("invalid", "private_key is not a valid private key")
  })

/**
 * `SHA256:<base64 of SHA-256 of the DER SubjectPublicKeyInfo>`, Snowflake's RSA_PUBLIC_KEY_FP.
 * @since 0.1.0
 * @category utils
 */
export const publicKeyFingerprint = (key: KeyObject): string => {
  const spki = createPublicKey(key).export({ type: "spki", format: "der" })
  return `SHA256:${createHash("sha256").update(spki).digest("base64")}`
}

/**
 * @since 0.1.0
 * @category utils
 */
export const validate = (input: PrivateKeyInput): Either.Either<ValidatedPrivateKey, ValidationFailed> =>
  Either.gen(function*() {
    const passphrase = input.passphrase === null || input.passphrase === "" ? undefined : input.passphrase
    const block = yield* readPem(input.privateKey)
    const encrypted = yield* encryptionOf(block)
    if (encrypted && passphrase === undefined) {
      return yield* Either.left(passphraseIssue("required", "private_key is encrypted; private_key_passphrase is required"))
    }
    if (!encrypted && passphrase !== undefined) {
      return yield* Either.left(
        passphraseIssue("not_applicable", "private_key is not encrypted; omit private_key_passphrase")
      )
    }
    yield* checkDerivationWork(block)
    const pem = Pem.format(block)
    const key = yield* load(pem, passphrase, encrypted)
    if (key.asymmetricKeyType !== "rsa") {
      return yield* Either.left(keyIssue("unsupported_key_type", `private_key must be an RSA key, not ${key.asymmetricKeyType}`))
    }
    const bits = key.asymmetricKeyDetails?.modulusLength ?? 0
    if (bits < MIN_RSA_BITS) {
      return yield* Either.left(keyIssue("too_small", `private_key must be at least ${MIN_RSA_BITS} bits, not ${bits}`))
    }
    return {
      pem,
      encrypted,
      bits,
      publicKeyFingerprint: publicKeyFingerprint(key),
      pkcs8: key.export({ type: "pkcs8", format: "pem" }).toString()
    }
  })
