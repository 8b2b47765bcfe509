/** Warehouse keys at rest in Postgres (jsonb): sealed, and tamper-evident. */
import { Core } from "@costline/core"
import type { DwAccount } from "@costline/core"
import { contractSecrets, expectSealedAtRest, type SealedColumn } from "@costline/store-contract"
import { PgStore } from "@costline/store-pg"
import { SqlClient } from "@effect/sql/SqlClient"
import { layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { useFreshDatabase } from "./support/database.js"

const url = useFreshDatabase()

const sealedColumn: SealedColumn<SqlClient> = {
  read: (id: DwAccount.DwAccountId) =>
    Effect.flatMap(SqlClient, (sql) => sql`SELECT sealed_private_key AS sealed FROM dw_accounts WHERE id = ${id}`).pipe(
      Effect.map((rows) => rows[0]?.["sealed"])
    ),
  write: (id: DwAccount.DwAccountId, json: string) =>
    Effect.flatMap(SqlClient, (sql) => sql`UPDATE dw_accounts SET sealed_private_key = ${json}::jsonb WHERE id = ${id}`)
}

const store = Core.layerWithSecrets.pipe(Layer.provideMerge(PgStore.layer({ url })), Layer.provideMerge(contractSecrets))

layer(store, { timeout: "60 seconds" })("warehouse keys at rest (Postgres)", (it) => {
  it.effect("the stored jsonb holds no key material, and a ciphertext altered in the table does not open", () =>
    expectSealedAtRest(sealedColumn))
})
