/**
 * Contract: warehouse accounts. Keys are stored sealed and bound to their account, updates are
 * compare-and-set on the etag, and no audit record carries key material.
 */
import { describe, expect, type Vitest } from "@effect/vitest"
import { DateTime, Effect, Option, Redacted, TestClock } from "effect"
import { randomUUID } from "node:crypto"
import { Actor, DwAccount, DwAccounts, DwAccountsRepo, Precondition } from "@costline/core"
import type { Envelope, Ids } from "@costline/core"
import { drainExport, freshOrganization, ifMatch, userActor } from "./Fixtures.js"
import { expectNoKeyMaterial, TEST_KEY_PASSPHRASE, type SecretsContractServices, tampered, testKey } from "./SecretsFixtures.js"

const admin = userActor("admin@example.com")

const newAccount = (organizationId: Ids.OrganizationId, name = "Production") =>
  Effect.flatMap(DwAccounts.DwAccounts, (accounts) => accounts.create(Actor.Actor.system(), organizationId, new DwAccount.CreateDwAccount({ name })))

const keyPatch = (privateKey: string, passphrase?: string, username?: string) =>
  new DwAccount.DwAccountPatch({
    credentials: new DwAccount.KeyPairCredentials({
      authentication_method: "key_pair",
      private_key: privateKey,
      ...(passphrase === undefined ? {} : { private_key_passphrase: passphrase }),
      ...(username === undefined ? {} : { username })
    })
  })

const connectionRecords = (organizationId: Ids.OrganizationId) =>
  Effect.map(drainExport(organizationId, { filters: { resource_in: ["connections"] } }), ({ records }) => records)

const storeSealed = (account: DwAccount.DwAccount, sealed: Envelope.SealedSecret) =>
  Effect.flatMap(DwAccountsRepo.DwAccountsRepo, (repo) => repo.update(account, { expectedEtag: account.etag, credentials: sealed }))

export const dwAccountsContract = (it: Vitest.MethodsNonLive<SecretsContractServices>) => {
  describe("warehouse accounts", () => {
    it.effect("creates an account without credentials and audits it as a connection", () =>
      Effect.gen(function*() {
        const accounts = yield* DwAccounts.DwAccounts
        const organization = yield* freshOrganization
        const account = yield* newAccount(organization.id, "  Production ")
        expect(account).toMatchObject({
          name: "Production",
          username: null,
          public_key_fingerprint: null,
          credentials_updated_at: null
        })
        expect(yield* accounts.get(organization.id, account.id)).toEqual(account)
        expect(yield* (yield* DwAccountsRepo.DwAccountsRepo).findCredentials(organization.id, account.id)).toEqual(Option.none())
        expect(yield* connectionRecords(organization.id)).toMatchObject([{
          table_name: "dw_accounts",
          record_id: account.id,
          operation: "create",
          new_values: { name: "Production", authentication_method: "key_pair", username: null, public_key_fingerprint: null }
        }])
      }))

    it.effect("an account of an unknown organization is NotFound, not a store failure", () =>
      Effect.gen(function*() {
        const refused = yield* Effect.flip(newAccount(`org-${randomUUID()}` as Ids.OrganizationId))
        expect(refused).toMatchObject({ _tag: "NotFound", resource: "organization" })
      }))

    it.effect("stores a new key sealed, shows only its fingerprint, opens it as unencrypted PKCS#8, audits no key material", () =>
      Effect.gen(function*() {
        const accounts = yield* DwAccounts.DwAccounts
        const organization = yield* freshOrganization
        const account = yield* newAccount(organization.id)
        yield* TestClock.adjust("1 hour")
        const patch = keyPatch(testKey().pkcs1Encrypted, TEST_KEY_PASSPHRASE, "LOADER")
        const updated = yield* accounts.update(admin, organization.id, account.id, patch, Precondition.none)
        const now = yield* DateTime.now
        expect(updated).toMatchObject({ username: "LOADER", public_key_fingerprint: testKey().fingerprint })
        expect(updated.credentials_updated_at).toEqual(now)
        expect(updated.updated_at).toEqual(now)
        expect(updated.etag).not.toBe(account.etag)
        expect(yield* accounts.get(organization.id, account.id)).toEqual(updated)

        expect(Redacted.value(yield* accounts.openPrivateKey(organization.id, account.id))).toBe(testKey().pkcs8)
        const sealed = yield* (yield* DwAccountsRepo.DwAccountsRepo).findCredentials(organization.id, account.id)
        expect(Option.isSome(sealed)).toBe(true)
        expectNoKeyMaterial(sealed)

        const records = yield* connectionRecords(organization.id)
        expect(records.at(-1)).toMatchObject({
          operation: "update",
          changed_by: "admin@example.com",
          old_values: { username: null, public_key_fingerprint: null },
          new_values: { username: "LOADER", public_key_fingerprint: testKey().fingerprint }
        })
        expectNoKeyMaterial(records)
      }))

    it.effect("a key that fails validation is refused where it sat in the request; nothing is stored or audited", () =>
      Effect.gen(function*() {
        const accounts = yield* DwAccounts.DwAccounts
        const organization = yield* freshOrganization
        const account = yield* newAccount(organization.id)
        const wrongPassphrase = yield* Effect.flip(
          accounts.update(admin, organization.id, account.id, keyPatch(testKey().pkcs1Encrypted, "wrong"), Precondition.none)
        )
        expect(wrongPassphrase).toMatchObject({
          _tag: "ValidationFailed",
          details: [{ field: "credentials.private_key_passphrase", issue: "incorrect" }]
        })
        const v1Garbage = yield* Effect.flip(
          accounts.replaceCredentials(admin, organization.id, account.id, new DwAccount.CredentialsPut({ private_key: "not a key" }))
        )
        expect(v1Garbage).toMatchObject({ _tag: "ValidationFailed", details: [{ field: "private_key", issue: "malformed" }] })
        expect(yield* accounts.get(organization.id, account.id)).toEqual(account)
        expect(yield* (yield* DwAccountsRepo.DwAccountsRepo).findCredentials(organization.id, account.id)).toEqual(Option.none())
        expect(yield* connectionRecords(organization.id)).toHaveLength(1)
      }))

    it.effect("If-Match: stale or weak tags are PreconditionFailed, * and the current tag match; a no-op writes nothing", () =>
      Effect.gen(function*() {
        const accounts = yield* DwAccounts.DwAccounts
        const organization = yield* freshOrganization
        const account = yield* newAccount(organization.id)
        const rename = (name: string, header: string) =>
          accounts.update(admin, organization.id, account.id, new DwAccount.DwAccountPatch({ name }), ifMatch(header))

        const renamed = yield* rename("Renamed", `"stale", ${account.etag}`)
        expect(renamed.name).toBe("Renamed")
        expect((yield* Effect.flip(rename("Again", account.etag)))._tag).toBe("PreconditionFailed")
        expect((yield* Effect.flip(rename("Again", `W/${renamed.etag}`)))._tag).toBe("PreconditionFailed")
        expect((yield* rename("Again", "*")).name).toBe("Again")

        const current = yield* accounts.get(organization.id, account.id)
        const unchanged = yield* accounts.update(admin, organization.id, account.id, new DwAccount.DwAccountPatch({ name: "Again" }), Precondition.none)
        expect(unchanged).toEqual(current)
        expect(yield* accounts.update(admin, organization.id, account.id, new DwAccount.DwAccountPatch({}), Precondition.none)).toEqual(current)
        const operations = (yield* connectionRecords(organization.id)).map((record) => record.operation)
        expect(operations).toEqual(["create", "update", "update"])
      }))

    it.effect("v1 replaces the key and keeps the username; the same key again is still a change", () =>
      Effect.gen(function*() {
        const accounts = yield* DwAccounts.DwAccounts
        const organization = yield* freshOrganization
        const account = yield* newAccount(organization.id)
        const first = yield* accounts.update(admin, organization.id, account.id, keyPatch(testKey().pkcs8, undefined, "LOADER"), Precondition.none)
        yield* TestClock.adjust("1 minute")
        const sameKey = new DwAccount.CredentialsPut({ private_key: testKey().pkcs8 })
        const again = yield* accounts.replaceCredentials(admin, organization.id, account.id, sameKey)
        expect(again).toMatchObject({ name: "Production", username: "LOADER", public_key_fingerprint: testKey().fingerprint })
        expect(again.etag).not.toBe(first.etag)
        expect(again.credentials_updated_at).toEqual(yield* DateTime.now)
        expect(yield* connectionRecords(organization.id)).toHaveLength(3)
      }))

    it.effect("another organization's account is NotFound for every operation", () =>
      Effect.gen(function*() {
        const accounts = yield* DwAccounts.DwAccounts
        const [organization, other] = [yield* freshOrganization, yield* freshOrganization]
        const account = yield* newAccount(organization.id)
        yield* accounts.update(admin, organization.id, account.id, keyPatch(testKey().pkcs8), Precondition.none)
        const refusals = yield* Effect.all([
          Effect.flip(accounts.get(other.id, account.id)),
          Effect.flip(accounts.update(admin, other.id, account.id, new DwAccount.DwAccountPatch({ name: "Mine" }), Precondition.none)),
          Effect.flip(accounts.replaceCredentials(admin, other.id, account.id, new DwAccount.CredentialsPut({ private_key: "k" }))),
          Effect.flip(accounts.openPrivateKey(other.id, account.id))
        ])
        expect(refusals.map((error) => error._tag)).toEqual(["NotFound", "NotFound", "NotFound", "NotFound"])
        expect(yield* connectionRecords(other.id)).toEqual([])
      }))

    it.effect("a sealed key that was altered, or moved onto another account, does not open", () =>
      Effect.gen(function*() {
        const accounts = yield* DwAccounts.DwAccounts
        const repo = yield* DwAccountsRepo.DwAccountsRepo
        const organization = yield* freshOrganization
        const [account, other] = [yield* newAccount(organization.id), yield* newAccount(organization.id, "Staging")]
        const withKey = yield* accounts.update(admin, organization.id, account.id, keyPatch(testKey().pkcs8), Precondition.none)
        const sealed = Option.getOrThrow(yield* repo.findCredentials(organization.id, account.id))

        expect(yield* storeSealed(other, sealed)).toBe(true)
        expect(yield* Effect.flip(accounts.openPrivateKey(organization.id, other.id))).toMatchObject({
          _tag: "SecretUnreadable",
          reason: "authentication_failed"
        })
        expect(yield* storeSealed(withKey, tampered(sealed))).toBe(true)
        expect(yield* Effect.flip(accounts.openPrivateKey(organization.id, account.id))).toMatchObject({
          _tag: "SecretUnreadable",
          reason: "authentication_failed"
        })
      }))
  })
}
