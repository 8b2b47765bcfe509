/**
 * A dw ingestion's batches are COPYed inside their own transactions: a COPY the server refuses
 * takes nothing of its batch with it, and leaves the ingestion to be discarded whole.
 */
import { Core, type Ids, KeyedUsageRepo, UsageRepo } from "@costline/core"
import { freshOrganization } from "@costline/store-contract"
import { PgStore } from "@costline/store-pg"
import { SqlClient } from "@effect/sql/SqlClient"
import { expect, it } from "@effect/vitest"
import { Effect, Exit, Layer } from "effect"
import { randomUUID } from "node:crypto"
import { useFreshDatabase } from "./support/database.js"

const url = useFreshDatabase()

const store = () => Core.layer.pipe(Layer.provideMerge(PgStore.layer({ url, maxConnections: 2 })))

const record = (credits: number) => ({ start_time: new Date("2024-05-02T00:00:00Z"), credits, warehouse_name: "WH" })

it.live("a refused COPY fails its batch alone, inside its transaction; discarding then leaves nothing staged or marked", () =>
  Effect.gen(function*() {
    const organization = yield* freshOrganization
    const keyed = yield* KeyedUsageRepo.KeyedUsageRepo
    const sql = yield* SqlClient
    const ingestionId = randomUUID()
    const rows = () =>
      sql<{ readonly n: string }>`SELECT count(*) AS n FROM usage_records WHERE import_id = ${ingestionId}`.pipe(
        Effect.map(([row]) => Number(row?.n))
      )
    yield* keyed.begin(organization.id, ingestionId, new Date())
    yield* keyed.stage(organization.id, ingestionId, [{ key: "query:1", record: record(1) }], new Date())
    // The second batch's rows name an organization that does not exist: the server refuses the
    // COPY (foreign key) after its first row was read.
    const refused = yield* Effect.exit(keyed.stage("no-such-organization" as Ids.OrganizationId, ingestionId, [
      { key: "query:2", record: record(2) },
      { key: "query:3", record: record(3) }
    ], new Date()))
    expect(Exit.isFailure(refused)).toBe(true)
    expect(yield* rows()).toBe(1)
    // Nothing of it was kept, and the store serves the next batch.
    yield* keyed.stage(organization.id, ingestionId, [{ key: "query:4", record: record(4) }], new Date())
    expect(yield* rows()).toBe(2)
    yield* (yield* UsageRepo.UsageRecordsRepo).discard(ingestionId)
    expect(yield* rows()).toBe(0)
    const [pending] = yield* sql<{ readonly n: string }>`SELECT count(*) AS n FROM usage_imports WHERE id = ${ingestionId}`
    expect(Number(pending?.n)).toBe(0)
  }).pipe(Effect.provide(store())))
