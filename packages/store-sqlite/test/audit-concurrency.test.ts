/**
 * Two connections on one file, as a server and the CLI would hold: writers on both interleave
 * their transactions while a poller drains the export; every record arrives exactly once.
 */
import { AuditLog, Core, Transactor } from "@costline/core"
import type { Audit } from "@costline/core"
import { drainExport, freshOrganization, ids, recordChange } from "@costline/store-contract"
import { SqliteStore } from "@costline/store-sqlite"
import { expect, it } from "@effect/vitest"
import { Deferred, Effect, Fiber, Layer } from "effect"
import { useTempDirectory } from "./support/tempDatabase.js"

const databaseFile = useTempDirectory()

const TRANSACTIONS_PER_WRITER = 12

it.live("writers on two connections to one file: a poller receives every record exactly once", () =>
  Effect.gen(function*() {
    const filename = databaseFile("shared.db")
    const connection = () => Layer.build(Core.layer.pipe(Layer.provideMerge(SqliteStore.layer({ filename }))))
    const [first, second] = [yield* connection(), yield* connection()]
    const organization = yield* freshOrganization.pipe(Effect.provide(first))
    const pollerHasRecords = yield* Deferred.make<void>()

    // Transaction t of writer w appends 1-3 records and yields between them, so the other
    // connection's writers get to run (and wait for the write lock) mid-transaction.
    const writer = (context: typeof first, writer: number) =>
      Effect.gen(function*() {
        const transactor = yield* Transactor.Transactor
        const written: Array<Audit.AuditRecord> = []
        for (let index = 0; index < TRANSACTIONS_PER_WRITER; index++) {
          if (index === TRANSACTIONS_PER_WRITER / 2) yield* Deferred.await(pollerHasRecords)
          const records = yield* transactor.withTransaction(
            Effect.forEach(Array.from({ length: 1 + ((writer + index) % 3) }, (_, n) => n), (n) =>
              recordChange(organization.id, `w${writer}-t${index}-r${n}`).pipe(Effect.zipLeft(Effect.yieldNow())))
          )
          written.push(...records)
        }
        return written
      }).pipe(Effect.provide(context))
    const writing = yield* Effect.fork(
      Effect.all([writer(first, 0), writer(second, 1), writer(first, 2), writer(second, 3)], { concurrency: "unbounded" })
    )

    const delivered: Array<Audit.AuditRecord> = []
    let token: string | undefined
    const audit = yield* Effect.provide(AuditLog.AuditLog, second)
    while ((yield* Fiber.poll(writing))._tag === "None") {
      const page = yield* audit.export(organization.id, { filters: {}, order: "asc", maxResults: 3, pageToken: token })
      delivered.push(...page.items)
      token = page.page_token ?? token
      if (delivered.length > 0) yield* Deferred.succeed(pollerHasRecords, undefined)
      // SQLite answers synchronously: without a yield this loop would never let the writers run.
      yield* Effect.yieldNow()
    }
    const written = (yield* Fiber.join(writing)).flat()
    delivered.push(...(yield* drainExport(organization.id, { maxResults: 3, from: token }).pipe(Effect.provide(second))).records)

    expect(written).toHaveLength(4 * TRANSACTIONS_PER_WRITER * 2)
    expect(ids(delivered).length).toBe(new Set(ids(delivered)).size)
    expect(new Set(ids(delivered))).toEqual(new Set(ids(written)))
  }).pipe(Effect.scoped))
