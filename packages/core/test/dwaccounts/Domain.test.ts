import { describe, expect, it } from "@effect/vitest"
import { DateTime, Either, Schema } from "effect"
import { CredentialsPut, DwAccount, DwAccountPatch } from "../../src/dwaccounts/Domain.js"

const decodePatch = Schema.decodeUnknownEither(DwAccountPatch)
const decodePut = Schema.decodeUnknownEither(CredentialsPut)
const PEM = "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----"

describe("DwAccountPatch", () => {
  it.each([
    ["an empty patch", {}],
    ["a new name", { name: "Production" }],
    ["credentials without username or passphrase", { credentials: { authentication_method: "key_pair", private_key: PEM } }],
    [
      "credentials with every member",
      { credentials: { authentication_method: "key_pair", username: "LOADER", private_key: PEM, private_key_passphrase: "p" } }
    ],
    ["a null passphrase", { credentials: { authentication_method: "key_pair", private_key: PEM, private_key_passphrase: null } }]
  ])("accepts %s", (_, body) => {
    expect(Either.isRight(decodePatch(body))).toBe(true)
  })

  it.each([
    ["a null name", { name: null }],
    ["a blank name", { name: "   " }],
    ["a name over 200 characters", { name: "x".repeat(201) }],
    ["null credentials", { credentials: null }],
    ["another authentication method", { credentials: { authentication_method: "password", private_key: PEM } }],
    ["credentials without a method", { credentials: { private_key: PEM } }],
    ["credentials without a key", { credentials: { authentication_method: "key_pair" } }],
    ["a blank username", { credentials: { authentication_method: "key_pair", username: "", private_key: PEM } }],
    ["a name with a NUL character", { name: "Prod\u0000" }],
    // A key sent under a misspelt name must not look like a successful rotation.
    ["an unknown member", { private_key: PEM }],
    ["an unknown member of credentials", { credentials: { authentication_method: "key_pair", privateKey: PEM, private_key: PEM } }]
  ])("refuses %s", (_, body) => {
    expect(Either.isLeft(decodePatch(body))).toBe(true)
  })
})

describe("CredentialsPut", () => {
  it("accepts a key with or without a passphrase", () => {
    expect(Either.isRight(decodePut({ private_key: PEM }))).toBe(true)
    expect(Either.isRight(decodePut({ private_key: PEM, private_key_passphrase: "p" }))).toBe(true)
    expect(Either.isRight(decodePut({ private_key: PEM, private_key_passphrase: null }))).toBe(true)
  })

  it("requires the key", () => {
    expect(Either.isLeft(decodePut({ private_key_passphrase: "p" }))).toBe(true)
    expect(Either.isLeft(decodePut({ private_key: 42 }))).toBe(true)
  })
})

describe("DwAccount", () => {
  const encoded = {
    id: "0d3f8a7e-2b1c-4c5d-9e8f-102132435465",
    organization_id: "org-1",
    name: "Production",
    authentication_method: "key_pair",
    username: "LOADER",
    public_key_fingerprint: null,
    credentials_updated_at: null,
    created_at: "2025-01-02T03:04:05.000Z",
    updated_at: "2025-01-02T03:04:05.000Z",
    etag: "\"1\""
  }

  it("has no credentials until they are first set, and round-trips through its encoding", () => {
    const account = Schema.decodeUnknownSync(DwAccount)(encoded)
    expect(account.public_key_fingerprint).toBeNull()
    expect(DateTime.formatIso(account.created_at)).toBe(encoded.created_at)
    expect(Schema.encodeSync(DwAccount)(account)).toStrictEqual(encoded)
  })

  it("never has a field that could carry the private key", () => {
    expect(Object.keys(DwAccount.fields).filter((name) => /private|passphrase|secret/.test(name))).toStrictEqual([])
  })
})
