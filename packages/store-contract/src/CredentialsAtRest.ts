/**
 * What only a store's own tests can check, reading its table directly: the column that stores a
 * warehouse key holds no key material, and a ciphertext altered in the database does not open.
 */
import { expect } from "@effect/vitest"
import { Effect, Schema } from "effect"
import { Actor, DwAccount, DwAccounts, Envelope, Precondition } from "@costline/core"
import { freshOrganization } from "./Fixtures.js"
import { expectNoKeyMaterial, tampered, testKey } from "./SecretsFixtures.js"

/** Raw access to `dw_accounts.sealed_private_key`, bypassing every repository. */
export interface SealedColumn<R> {
  /** The column as the driver returns it (JSON text, or parsed jsonb). */
  readonly read: (id: DwAccount.DwAccountId) => Effect.Effect<unknown, unknown, R>
  readonly write: (id: DwAccount.DwAccountId, json: string) => Effect.Effect<unknown, unknown, R>
}

const asJson = (raw: unknown): string => (typeof raw === "string" ? raw : JSON.stringify(raw))

export const expectSealedAtRest = <R>(column: SealedColumn<R>) =>
  Effect.gen(function*() {
    const accounts = yield* DwAccounts.DwAccounts
    const organization = yield* freshOrganization
    const { id } = yield* accounts.create(Actor.Actor.system(), organization.id, new DwAccount.CreateDwAccount({ name: "Production" }))
    yield* accounts.update(Actor.Actor.system(), organization.id, id, new DwAccount.DwAccountPatch({
      credentials: new DwAccount.KeyPairCredentials({ authentication_method: "key_pair", private_key: testKey().pkcs8 })
    }), Precondition.none)

    const stored = asJson(yield* Effect.orDie(column.read(id)))
    expectNoKeyMaterial(stored)
    const sealed = Schema.decodeSync(Schema.parseJson(Envelope.SealedSecret))(stored)

    yield* Effect.orDie(column.write(id, JSON.stringify(Schema.encodeSync(Envelope.SealedSecret)(tampered(sealed)))))
    expect(yield* Effect.flip(accounts.openPrivateKey(organization.id, id))).toMatchObject({
      _tag: "SecretUnreadable",
      reason: "authentication_failed"
    })
  })
