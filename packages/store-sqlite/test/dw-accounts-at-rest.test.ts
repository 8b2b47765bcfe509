/** Warehouse keys at rest in the SQLite file: sealed, and tamper-evident. */
import { Core } from "@costline/core"
import type { DwAccount } from "@costline/core"
import { contractSecrets, expectSealedAtRest, type SealedColumn } from "@costline/store-contract"
import { SqliteStore } from "@costline/store-sqlite"
import { SqlClient } from "@effect/sql/SqlClient"
import { layer } from "@effect/vitest"
import { Effect, Layer } from "effect"

const sealedColumn: SealedColumn<SqlClient> = {
  read: (id: DwAccount.DwAccountId) =>
    Effect.flatMap(SqlClient, (sql) => sql`SELECT sealed_private_key AS sealed FROM dw_accounts WHERE id = ${id}`).pipe(
      Effect.map((rows) => rows[0]?.["sealed"])
    ),
  write: (id: DwAccount.DwAccountId, json: string) =>
    Effect.flatMap(SqlClient, (sql) => sql`UPDATE dw_accounts SET sealed_private_key = ${json} WHERE id = ${id}`)
}

const store = Core.layerWithSecrets.pipe(
  Layer.provideMerge(SqliteStore.layer({ filename: ":memory:" })),
  Layer.provideMerge(contractSecrets)
)

layer(store)("warehouse keys at rest (SQLite)", (it) => {
  it.effect("the stored column holds no key material, and a ciphertext altered in the file does not open", () =>
    expectSealedAtRest(sealedColumn))
})
