/**
 * What the contracts of services that seal secrets add to the store's: a master key of their own,
 * a warehouse key pair, and checks that no key material shows.
 */
import { expect } from "@effect/vitest"
import { Redacted } from "effect"
import { generateKeyPairSync, randomBytes } from "node:crypto"
import { Envelope, MasterKeys, PrivateKey, Secrets } from "@costline/core"
import type { DwAccounts } from "@costline/core"
import type { ContractServices } from "./Fixtures.js"

export type SecretsContractServices = ContractServices | DwAccounts.DwAccounts | Secrets.Secrets

export const contractKey = { id: "contract", key: Redacted.make(randomBytes(MasterKeys.MASTER_KEY_BYTES)) }

/** A random master key for the run: the contract seals and opens within one process, quietly. */
export const contractSecrets = Secrets.Secrets.layerFromKeys({ current: contractKey, byId: new Map([[contractKey.id, contractKey]]) })

export const TEST_KEY_PASSPHRASE = "open sesame"

const makeKey = () => {
  const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 })
  const pkcs8 = privateKey.export({ type: "pkcs8", format: "pem" }).toString()
  return {
    pkcs8,
    pkcs1Encrypted: privateKey
      .export({ type: "pkcs1", format: "pem", cipher: "aes-256-cbc", passphrase: TEST_KEY_PASSPHRASE })
      .toString(),
    fingerprint: PrivateKey.publicKeyFingerprint(privateKey),
    /** The base64 lines of the key: none may appear in anything stored or audited. */
    bodyLines: pkcs8.split("\n").filter((line) => line.length > 0 && !line.startsWith("-----"))
  }
}

let generated: ReturnType<typeof makeKey> | undefined

/** RSA generation is slow: one key pair per process, made when the first test needs it. */
export const testKey = () => (generated ??= makeKey())

export const expectNoKeyMaterial = (value: unknown) => {
  const text = typeof value === "string" ? value : JSON.stringify(value)
  for (const line of testKey().bodyLines) expect(text).not.toContain(line)
  expect(text).not.toContain("PRIVATE KEY")
  expect(text).not.toContain(TEST_KEY_PASSPHRASE)
}

/** A sealed key with one ciphertext byte flipped. */
export const tampered = (sealed: Envelope.SealedSecret) => {
  const bytes = Buffer.from(sealed.ciphertext, "base64")
  bytes[0] = bytes[0]! ^ 0x01
  return new Envelope.SealedSecret({ ...sealed, ciphertext: bytes.toString("base64") })
}
