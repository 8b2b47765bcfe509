import { describe, expect, it } from "@effect/vitest"
import { Either, FastCheck as fc } from "effect"
import { MAX_KEY_DERIVATION_WORK } from "../../src/dwaccounts/internal/KeyDerivationWork.js"
import * as PrivateKey from "../../src/dwaccounts/PrivateKey.js"
import { encryptedPem, octets, pbes2, pbkdf2, pkcs12Pbe, scrypt, sequence } from "./der.js"
import {
  ecPkcs8,
  ecSec1,
  encryptedForms,
  expectedFingerprint,
  PASSPHRASE,
  plainForms,
  rsa1024Pkcs8,
  rsaKeys,
  rsaPublicKey
} from "./keys.js"

const accepted = (input: PrivateKey.PrivateKeyInput) => Either.getOrThrow(PrivateKey.validate(input))

/** The one issue a rejected input reports. */
const rejection = (input: PrivateKey.PrivateKeyInput) => {
  const result = PrivateKey.validate(input)
  if (Either.isRight(result)) throw new Error("expected a rejection")
  expect(result.left._tag).toBe("ValidationFailed")
  expect(result.left.details).toHaveLength(1)
  return result.left
}

const issueOf = (input: PrivateKey.PrivateKeyInput) => {
  const { field, issue } = rejection(input).details[0]!
  return { field, issue }
}

const oneLine = (pem: string) => pem.trim().replaceAll("\n", " ")

describe("PrivateKey.validate", () => {
  describe("accepts", () => {
    it.each(plainForms)("an unencrypted %s key, re-exported as PKCS#8", (form) => {
      expect(accepted({ privateKey: rsaKeys[form] })).toStrictEqual({
        pem: rsaKeys[form],
        encrypted: false,
        bits: 2048,
        publicKeyFingerprint: expectedFingerprint,
        pkcs8: rsaKeys.pkcs8
      })
    })

    it.each(encryptedForms)("an encrypted %s key with its passphrase: kept encrypted as pem, decrypted as PKCS#8", (form) => {
      expect(accepted({ privateKey: rsaKeys[form], passphrase: PASSPHRASE })).toStrictEqual({
        pem: rsaKeys[form],
        encrypted: true,
        bits: 2048,
        publicKeyFingerprint: expectedFingerprint,
        pkcs8: rsaKeys.pkcs8
      })
    })

    it.each([...plainForms, ...encryptedForms])("the one-line form of a %s key, normalised", (form) => {
      const passphrase = form.endsWith("Encrypted") ? PASSPHRASE : undefined
      expect(oneLine(rsaKeys[form])).not.toContain("\n")
      const key = accepted({ privateKey: oneLine(rsaKeys[form]), passphrase })
      expect(key.pem).toBe(rsaKeys[form])
      expect(key.publicKeyFingerprint).toBe(expectedFingerprint)
    })

    it.each([...plainForms, ...encryptedForms])("a %s key with CRLF line ends, normalised", (form) => {
      const passphrase = form.endsWith("Encrypted") ? PASSPHRASE : undefined
      expect(accepted({ privateKey: rsaKeys[form].replaceAll("\n", "\r\n"), passphrase }).pem).toBe(rsaKeys[form])
    })

    it("an empty or null passphrase with an unencrypted key, as no passphrase", () => {
      expect(accepted({ privateKey: rsaKeys.pkcs8, passphrase: "" }).encrypted).toBe(false)
      expect(accepted({ privateKey: rsaKeys.pkcs8, passphrase: null }).encrypted).toBe(false)
    })
  })

  describe("refuses", () => {
    it.each(encryptedForms)("an encrypted %s key without a passphrase", (form) => {
      expect(issueOf({ privateKey: rsaKeys[form] })).toStrictEqual({ field: "private_key_passphrase", issue: "required" })
      expect(issueOf({ privateKey: rsaKeys[form], passphrase: "" })).toStrictEqual({
        field: "private_key_passphrase",
        issue: "required"
      })
    })

    it.each(encryptedForms)("an encrypted %s key with a wrong passphrase", (form) => {
      expect(issueOf({ privateKey: rsaKeys[form], passphrase: "wrong" })).toStrictEqual({
        field: "private_key_passphrase",
        issue: "incorrect"
      })
    })

    it.each(plainForms)("a passphrase for an unencrypted %s key", (form) => {
      expect(issueOf({ privateKey: rsaKeys[form], passphrase: PASSPHRASE })).toStrictEqual({
        field: "private_key_passphrase",
        issue: "not_applicable"
      })
    })

    it("an RSA key below 2048 bits", () => {
      expect(issueOf({ privateKey: rsa1024Pkcs8 })).toStrictEqual({ field: "private_key", issue: "too_small" })
      expect(rejection({ privateKey: rsa1024Pkcs8 }).message).toContain("1024")
    })

    it("a PKCS#8 key that is not RSA", () => {
      expect(issueOf({ privateKey: ecPkcs8 })).toStrictEqual({ field: "private_key", issue: "unsupported_key_type" })
    })

    it.each([
      ["SEC1 EC key", ecSec1],
      ["public key", rsaPublicKey],
      ["OpenSSH key", "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA\n-----END OPENSSH PRIVATE KEY-----"]
    ])("a %s", (_, privateKey) => {
      expect(issueOf({ privateKey })).toStrictEqual({ field: "private_key", issue: "unsupported_format" })
    })

    it.each([
      ["garbage", "hello world", "malformed"],
      ["a PEM whose body is not a key", "-----BEGIN PRIVATE KEY-----\nAAAAAAAA\n-----END PRIVATE KEY-----", "invalid"],
      ["an empty string", "", "empty"],
      ["white space only", " \n\t ", "empty"],
      ["an input beyond the size limit", rsaKeys.pkcs8 + " ".repeat(PrivateKey.MAX_PEM_LENGTH), "too_long"],
      ["headers on a PKCS#8 key", rsaKeys.pkcs8.replace("KEY-----\n", "KEY-----\nProc-Type: 4,ENCRYPTED\n\n"), "malformed"],
      ["unknown PKCS#1 headers", rsaKeys.pkcs1Encrypted.replace("Proc-Type: 4,ENCRYPTED", "Proc-Type: 4,MIC-ONLY"), "malformed"]
    ])("%s", (_, privateKey, issue) => {
      expect(issueOf({ privateKey })).toStrictEqual({ field: "private_key", issue })
    })

    it("an encrypted key whose key derivation would stall the server, before trying to decrypt it", () => {
      // Just over the limit, so that a regression fails (as `incorrect`) instead of hanging the suite.
      const tooCostly = MAX_KEY_DERIVATION_WORK + 1n
      for (const der of [pbes2(pbkdf2(tooCostly)), pbes2(scrypt(tooCostly, 1n, 1n)), pkcs12Pbe(tooCostly)]) {
        expect(issueOf({ privateKey: encryptedPem(der), passphrase: PASSPHRASE })).toStrictEqual({
          field: "private_key",
          issue: "unsupported_encryption"
        })
      }
    })

    it("an encrypted key within the work limit goes on to decryption", () => {
      // Dummy ciphertext: passing the cost check, it fails as a wrong passphrase would.
      expect(issueOf({ privateKey: encryptedPem(pbes2(pbkdf2(4096n))), passphrase: PASSPHRASE }))
        .toStrictEqual({ field: "private_key_passphrase", issue: "incorrect" })
    })

    it("an encrypted key whose encryption scheme is unreadable", () => {
      expect(issueOf({ privateKey: encryptedPem(sequence(octets(4), octets(4))), passphrase: PASSPHRASE })).toStrictEqual({
        field: "private_key",
        issue: "unsupported_encryption"
      })
    })
  })

  it.prop(
    "answers anything pasted with a result, never an exception",
    [fc.string({ unit: "binary", maxLength: 3000 }), fc.option(fc.string(), { nil: undefined })],
    ([privateKey, passphrase]) => {
      expect(() => PrivateKey.validate({ privateKey, passphrase })).not.toThrow()
    }
  )

  it.prop(
    "answers a real key with one character changed with a result, never an exception",
    [fc.constantFrom(...Object.values(rsaKeys)), fc.nat(), fc.constantFrom(..."A/+=- \n:,0")],
    ([pem, index, replacement]) => {
      const at = index % pem.length
      const garbled = pem.slice(0, at) + replacement + pem.slice(at + 1)
      expect(() => PrivateKey.validate({ privateKey: garbled, passphrase: PASSPHRASE })).not.toThrow()
    }
  )

  it("never quotes the key or the passphrase in an error", () => {
    const bodyLine = rsaKeys.pkcs8Encrypted.split("\n")[1]!
    const failures = [
      rejection({ privateKey: rsaKeys.pkcs8Encrypted, passphrase: "my-secret-passphrase" }),
      rejection({ privateKey: rsaKeys.pkcs8, passphrase: "my-secret-passphrase" }),
      rejection({ privateKey: rsaKeys.pkcs8Encrypted.replace(bodyLine, bodyLine.slice(1)), passphrase: "my-secret-passphrase" })
    ]
    for (const failure of failures) {
      const text = JSON.stringify(failure) + failure.message
      expect(text).not.toContain("my-secret-passphrase")
      expect(text).not.toContain(bodyLine.slice(8, 40))
    }
  })
})
