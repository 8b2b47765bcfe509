/**
 * Contract: the master-key check and rotation (secrets/KeyCheck). The check table is global, not
 * per organization, so every test leaves it as it found it: the contract key current and alone.
 */
import { describe, expect, type Vitest } from "@effect/vitest"
import { Effect, Layer, Option, Redacted } from "effect"
import { randomBytes } from "node:crypto"
import { Actor, DwAccount, DwAccounts, DwAccountsRepo, KeyCheck, MasterKeys, Precondition, Secrets } from "@costline/core"
import { freshOrganization, userActor } from "./Fixtures.js"
import { contractKey, type SecretsContractServices, testKey } from "./SecretsFixtures.js"

type MasterKey = MasterKeys.MasterKey

const masterKey = (id: string): MasterKey => ({ id, key: Redacted.make(randomBytes(MasterKeys.MASTER_KEY_BYTES)) })

/** Secrets (and a DwAccounts sealing with them) over the contract's store. */
const withKeys = (current: MasterKey, ...others: ReadonlyArray<MasterKey>) => {
  const secrets = Secrets.Secrets.layerFromKeys({ current, byId: new Map([current, ...others].map((key) => [key.id, key])) })
  return Layer.merge(secrets, DwAccounts.layer.pipe(Layer.provide(secrets)))
}

const refusal = <R>(effect: Effect.Effect<void, unknown, R>) =>
  Effect.map(Effect.flip(effect), (error) => ({ ...(error as object) }))

const accountWithKey = Effect.gen(function*() {
  const organization = yield* freshOrganization
  const accounts = yield* DwAccounts.DwAccounts
  const account = yield* accounts.create(Actor.Actor.system(), organization.id, new DwAccount.CreateDwAccount({ name: "Production" }))
  yield* accounts.update(userActor("admin@example.com"), organization.id, account.id, new DwAccount.DwAccountPatch({
    credentials: new DwAccount.KeyPairCredentials({ authentication_method: "key_pair", private_key: testKey().pkcs8 })
  }), Precondition.none)
  return account
})

export const keyCheckContract = (it: Vitest.MethodsNonLive<SecretsContractServices>) => {
  describe("master key check", () => {
    it.effect("the current key's check is stored on first use; the same id with other bytes, or a missing key, is refused", () =>
      Effect.gen(function*() {
        yield* KeyCheck.verify
        yield* KeyCheck.verify
        const impostor = { id: contractKey.id, key: Redacted.make(randomBytes(MasterKeys.MASTER_KEY_BYTES)) }
        expect(yield* refusal(KeyCheck.verify.pipe(Effect.provide(withKeys(impostor))))).toMatchObject({
          _tag: "SecretKeyRefused",
          key_id: contractKey.id,
          reason: "wrong_key"
        })
        const stranger = masterKey("stranger")
        expect(yield* refusal(KeyCheck.verify.pipe(Effect.provide(withKeys(stranger))))).toMatchObject({
          _tag: "SecretKeyRefused",
          key_id: contractKey.id,
          reason: "key_not_configured"
        })
        // Refusals store nothing: the contract key alone still passes.
        yield* KeyCheck.verify
      }))

    it.effect("rotation: new key + old key open everything; reseal re-wraps every credential, then the old key may go; and back", () =>
      Effect.gen(function*() {
        yield* KeyCheck.verify
        const account = yield* accountWithKey
        const repo = yield* DwAccountsRepo.DwAccountsRepo
        const keyIdOf = Effect.map(repo.findCredentials(account.organization_id, account.id), Option.map((sealed) => sealed.key_id))
        const opens = (layer: ReturnType<typeof withKeys>) =>
          Effect.flatMap(DwAccounts.DwAccounts, (accounts) => accounts.openPrivateKey(account.organization_id, account.id)).pipe(
            Effect.map(Redacted.value),
            Effect.provide(layer)
          )
        const next = masterKey(`next-${randomBytes(3).toString("hex")}`)
        const rotating = withKeys(next, contractKey)

        yield* KeyCheck.verify.pipe(Effect.provide(rotating))
        expect(yield* opens(rotating)).toBe(testKey().pkcs8)
        // Before the reseal the old key is still needed.
        expect(yield* refusal(KeyCheck.verify.pipe(Effect.provide(withKeys(next))))).toMatchObject({
          key_id: contractKey.id,
          reason: "key_not_configured"
        })

        const batches: Array<KeyCheck.ResealProgress> = []
        const progress = yield* KeyCheck.reseal({ batchSize: 1, onBatch: (p) => Effect.sync(() => batches.push(p)) }).pipe(
          Effect.provide(rotating)
        )
        expect(progress.resealed).toBeGreaterThanOrEqual(1)
        // One credential per batch; the contract's deliberately altered ones are reported, not fatal.
        expect(batches.length).toBe(
          progress.resealed + progress.current + progress.changedMeanwhile + progress.unreadable.length
        )
        expect(progress.unreadable.map(({ id }) => id)).not.toContain(account.id)
        expect(yield* keyIdOf).toEqual(Option.some(next.id))
        // Again: nothing left to do.
        const again = yield* KeyCheck.reseal({ batchSize: 10 }).pipe(Effect.provide(rotating))
        expect(again).toMatchObject({ resealed: 0, current: progress.resealed + progress.current })

        // The new key alone now opens everything, and the old one alone is refused.
        yield* KeyCheck.verify.pipe(Effect.provide(withKeys(next)))
        expect(yield* opens(withKeys(next))).toBe(testKey().pkcs8)
        expect(yield* refusal(KeyCheck.verify.pipe(Effect.provide(withKeys(contractKey))))).toMatchObject({
          key_id: next.id,
          reason: "key_not_configured"
        })

        // And back, so the rest of the contract finds its key current and alone.
        yield* KeyCheck.reseal({ batchSize: 100 }).pipe(Effect.provide(withKeys(contractKey, next)))
        expect(yield* keyIdOf).toEqual(Option.some(contractKey.id))
        yield* KeyCheck.verify
        expect(yield* opens(withKeys(contractKey))).toBe(testKey().pkcs8)
      }))

    it.effect("a reseal never overwrites a key set meanwhile (compare-and-set on the sealed value)", () =>
      Effect.gen(function*() {
        const account = yield* accountWithKey
        const repo = yield* DwAccountsRepo.DwAccountsRepo
        const secrets = yield* Secrets.Secrets
        const stored = Option.getOrThrow(yield* repo.findCredentials(account.organization_id, account.id))
        const read = { organization_id: account.organization_id, id: account.id, sealed: stored }
        const aad = { tenant: account.organization_id, recordId: account.id }
        const meanwhile = yield* secrets.seal("another key", aad)
        yield* repo.replaceSealed(read, meanwhile)
        expect(yield* repo.replaceSealed(read, yield* secrets.rewrap(stored, aad))).toBe(false)
        expect(yield* repo.findCredentials(account.organization_id, account.id)).toEqual(Option.some(meanwhile))
      }))
  })
}
