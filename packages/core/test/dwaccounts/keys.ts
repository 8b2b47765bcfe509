/** Keys generated once per test run (RSA generation is slow), in every form the validator meets. */
import { createHash, generateKeyPairSync, type KeyObject } from "node:crypto"

export const PASSPHRASE = "correct horse battery staple"

const rsa2048 = generateKeyPairSync("rsa", { modulusLength: 2048 })
const rsa1024 = generateKeyPairSync("rsa", { modulusLength: 1024 })
const ec = generateKeyPairSync("ec", { namedCurve: "prime256v1" })

const pem = (key: KeyObject, type: "pkcs8" | "pkcs1" | "sec1", encrypted = false) =>
  key.export(
    encrypted
      ? { type, format: "pem", cipher: "aes-256-cbc", passphrase: PASSPHRASE }
      : { type, format: "pem" }
  ) as string

/** The same 2048-bit key in the four accepted forms. */
export const rsaKeys = {
  pkcs8: pem(rsa2048.privateKey, "pkcs8"),
  pkcs8Encrypted: pem(rsa2048.privateKey, "pkcs8", true),
  pkcs1: pem(rsa2048.privateKey, "pkcs1"),
  pkcs1Encrypted: pem(rsa2048.privateKey, "pkcs1", true)
}

export const encryptedForms = ["pkcs8Encrypted", "pkcs1Encrypted"] as const
export const plainForms = ["pkcs8", "pkcs1"] as const

export const rsa1024Pkcs8 = pem(rsa1024.privateKey, "pkcs8")
export const ecPkcs8 = pem(ec.privateKey, "pkcs8")
export const ecSec1 = pem(ec.privateKey, "sec1")
export const rsaPublicKey = rsa2048.publicKey.export({ type: "spki", format: "pem" }) as string

/** Computed from the generated public key, not through the private key as the validator does. */
export const expectedFingerprint = `SHA256:${
  createHash("sha256").update(rsa2048.publicKey.export({ type: "spki", format: "der" })).digest("base64")
}`
