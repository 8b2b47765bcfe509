/**
 * The audit cursor under concurrent writers: every committed record reaches a poller exactly
 * once, also when transactions commit out of the order their records were inserted in, and in
 * the order they committed.
 */
import { AuditLog, Core, Transactor } from "@costline/core"
import type { Audit } from "@costline/core"
import { drainExport, freshOrganization, ids, recordChange } from "@costline/store-contract"
import { PgStore } from "@costline/store-pg"
import { describe, expect, it } from "@effect/vitest"
import { SqlClient } from "@effect/sql/SqlClient"
import { Deferred, Effect, Fiber, Layer } from "effect"
import { useFreshDatabase } from "./support/database.js"

const url = useFreshDatabase()
const store = Core.layer.pipe(Layer.provideMerge(PgStore.layer({ url, maxConnections: 12 })))

const WRITERS = 8
const TRANSACTIONS_PER_WRITER = 12

describe("audit export with concurrent writers on Postgres", () => {
  it.live("8 writers in interleaved transactions of different lengths: a poller receives every record exactly once", () =>
    Effect.gen(function*() {
      const audit = yield* AuditLog.AuditLog
      const transactor = yield* Transactor.Transactor
      const sql = yield* SqlClient
      const organization = yield* freshOrganization
      const pollerHasRecords = yield* Deferred.make<void>()

      // Transaction t of writer w appends 1-3 records with extra round trips between them, so
      // records inserted early are often committed after records inserted later.
      const transaction = (writer: number, index: number) =>
        transactor.withTransaction(
          Effect.forEach(Array.from({ length: 1 + ((writer + index) % 3) }, (_, n) => n), (n) =>
            recordChange(organization.id, `w${writer}-t${index}-r${n}`).pipe(
              Effect.tap(() => Effect.repeatN(sql`SELECT 1`, (writer * index + n) % 4))
            ))
        )
      const writer = (writer: number) =>
        Effect.gen(function*() {
          const written: Array<Audit.AuditRecord> = []
          for (let index = 0; index < TRANSACTIONS_PER_WRITER; index++) {
            // Halfway, wait until the poller has delivered something: it must read while others write.
            if (index === TRANSACTIONS_PER_WRITER / 2) yield* Deferred.await(pollerHasRecords)
            written.push(...(yield* transaction(writer, index)))
          }
          return written
        })
      const writing = yield* Effect.fork(
        Effect.all(Array.from({ length: WRITERS }, (_, n) => writer(n)), { concurrency: "unbounded" })
      )

      const delivered: Array<Audit.AuditRecord> = []
      let token: string | undefined
      let pollsWhileWriting = 0
      while ((yield* Fiber.poll(writing))._tag === "None") {
        const page = yield* audit.export(organization.id, { filters: {}, order: "asc", maxResults: 3, pageToken: token })
        delivered.push(...page.items)
        token = page.page_token ?? token
        pollsWhileWriting += 1
        if (delivered.length > 0) yield* Deferred.succeed(pollerHasRecords, undefined)
      }
      const written = (yield* Fiber.join(writing)).flat()
      const rest = yield* drainExport(organization.id, { maxResults: 3, from: token })
      delivered.push(...rest.records)

      expect(written).toHaveLength(WRITERS * TRANSACTIONS_PER_WRITER * 2)
      expect(pollsWhileWriting).toBeGreaterThan(1)
      expect(ids(delivered).length).toBe(new Set(ids(delivered)).size)
      expect(new Set(ids(delivered))).toEqual(new Set(ids(written)))
    }).pipe(Effect.provide(store)))

  it.live("an open transaction holds back no later record; its own arrive once it commits, after them, each once", () =>
    Effect.gen(function*() {
      const transactor = yield* Transactor.Transactor
      const organization = yield* freshOrganization
      const before = yield* recordChange(organization.id, "before")
      const inserted = yield* Deferred.make<void>()
      const commit = yield* Deferred.make<void>()
      const open = yield* Effect.fork(
        transactor.withTransaction(
          Effect.gen(function*() {
            const record = yield* recordChange(organization.id, "held")
            yield* Deferred.succeed(inserted, undefined)
            yield* Deferred.await(commit)
            return record
          })
        )
      )
      yield* Deferred.await(inserted)
      const later = [yield* recordChange(organization.id, "later-1"), yield* recordChange(organization.id, "later-2")]

      // Records are ordered by commit: the open transaction's record is not there yet, and
      // nothing committed after it started waits for it.
      const whileOpen = yield* drainExport(organization.id, { maxResults: 3 })
      expect(ids(whileOpen.records)).toEqual(ids([before, ...later]))

      yield* Deferred.succeed(commit, undefined)
      const held = yield* Fiber.join(open)
      const afterCommit = yield* drainExport(organization.id, { maxResults: 3, from: whileOpen.resumeToken })
      expect(ids(afterCommit.records)).toEqual([held.id])
    }).pipe(Effect.provide(store)))
})
