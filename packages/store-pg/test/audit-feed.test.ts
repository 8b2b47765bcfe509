/**
 * The audit feed stays live on Postgres: a committed record reaches a poller at once, whatever
 * other transactions are open (in another database, or costline's own usage import), and a page
 * token issued before records were stamped at commit still resumes where it was.
 */
import { Actor, Core, Installation, PageToken, Team, Teams, UsageImport } from "@costline/core"
import type { Audit, Ids } from "@costline/core"
import { drainExport, freshOrganization, ids, recordChange } from "@costline/store-contract"
import { MIGRATIONS_TABLE } from "@costline/store-sql"
import { PgStore } from "@costline/store-pg"
import { PgClient } from "@effect/sql-pg"
import * as Migrator from "@effect/sql/Migrator"
import { SqlClient } from "@effect/sql/SqlClient"
import { describe, expect, it } from "@effect/vitest"
import { Context, Deferred, Duration, Effect, Fiber, Layer, Redacted, Stream } from "effect"
import { migrations } from "../src/migrations/index.js"
import { useFreshDatabase } from "./support/database.js"

const url = useFreshDatabase()
const otherDatabaseUrl = useFreshDatabase()
const legacyUrl = useFreshDatabase()
const store = Core.layer.pipe(Layer.provideMerge(PgStore.layer({ url, maxConnections: 6 })))

/** The requirement: a committed record is exported within this long. */
const PROMPT = Duration.seconds(1)

/** Polls the export from `from` until the record `id` arrives; fails past the deadline. */
const exportedWithin = (organizationId: Ids.OrganizationId, id: string, from: string | undefined) =>
  Effect.gen(function*() {
    const delivered: Array<Audit.AuditRecord> = []
    let token = from
    const poll = Effect.gen(function*() {
      const page = yield* drainExport(organizationId, { maxResults: 3, from: token })
      delivered.push(...page.records)
      token = page.resumeToken
      return delivered.some((record) => record.id === id)
    })
    const [elapsed] = yield* poll.pipe(
      Effect.repeat({ until: (found) => found }),
      Effect.timeoutFail({ duration: PROMPT, onTimeout: () => new Error(`record ${id} not exported within 1 s`) }),
      Effect.timed
    )
    return { delivered, elapsed }
  })

const startLine = (n: number) =>
  JSON.stringify({ start_time: `2024-05-02T10:${String(n % 60).padStart(2, "0")}:00Z`, credits: 1 })

describe("the audit feed on Postgres", () => {
  it.live("a transaction holding a transaction id open in another database holds nothing back", () =>
    Effect.gen(function*() {
      const other = Context.get(
        yield* Layer.build(PgClient.layer({ url: Redacted.make(otherDatabaseUrl), maxConnections: 1 })),
        SqlClient
      )
      const organization = yield* freshOrganization
      const before = yield* drainExport(organization.id)
      const holding = yield* Deferred.make<void>()
      const release = yield* Deferred.make<void>()
      const foreign = yield* Effect.fork(other.withTransaction(Effect.gen(function*() {
        // An xid of its own: the cluster-wide snapshot horizon stays behind it while it runs.
        yield* other`SELECT pg_current_xact_id()`
        yield* Deferred.succeed(holding, undefined)
        yield* Deferred.await(release)
      })))
      yield* Deferred.await(holding)

      const team = yield* (yield* Teams.Teams).create(
        Actor.Actor.system(),
        organization.id,
        new Team.CreateTeam({ name: "Created while another database is busy", is_all_users: false, default_member_role: "viewer" })
      )
      const [record] = yield* (yield* SqlClient)<{ readonly id: string }>`
        SELECT id FROM audit_records WHERE organization_id = ${organization.id} AND record_id = ${team.id}`
      const { delivered, elapsed } = yield* exportedWithin(organization.id, record!.id, before.resumeToken)
      expect(ids(delivered)).toEqual([record!.id])
      expect(Duration.toMillis(elapsed)).toBeLessThan(1000)

      yield* Deferred.succeed(release, undefined)
      yield* Fiber.join(foreign)
    }).pipe(Effect.provide(store), Effect.scoped))

  it.live("a usage import held open hides no other record, of its own tenant or another", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient
      const importing = yield* freshOrganization
      const bystander = yield* freshOrganization
      const release = yield* Deferred.make<void>()
      // 3,000 rows: the first batch of 2,000 is staged, then the file "stalls" until released.
      const rows = Array.from({ length: 3000 }, (_, n) => startLine(n))
      let opened = 0
      const source = {
        format: "jsonl" as const,
        open: () =>
          ++opened === 1
            ? Stream.make(rows.join("\n"))
            : Stream.concat(
              Stream.make(rows.slice(0, 2500).join("\n") + "\n"),
              Stream.fromEffect(Deferred.await(release).pipe(Effect.as(rows.slice(2500).join("\n"))))
            )
      }
      const imported = yield* Effect.fork((yield* UsageImport.UsageImport).run(importing.id, source))
      // The import has staged its first batch (committed, hidden until it publishes) and waits for
      // the rest of the file: from here until it publishes, it is an import in progress.
      yield* sql<{ readonly n: number }>`
        SELECT count(*)::int AS n FROM usage_records r JOIN usage_imports i ON i.id = r.import_id
        WHERE i.organization_id = ${importing.id}`.pipe(
        Effect.repeat({ until: ([row]) => row!.n > 0 }),
        Effect.timeout("30 seconds")
      )

      for (const organization of [importing, bystander]) {
        const before = yield* drainExport(organization.id)
        const record = yield* recordChange(organization.id, "during the import")
        const { delivered, elapsed } = yield* exportedWithin(organization.id, record.id, before.resumeToken)
        expect(ids(delivered)).toEqual([record.id])
        expect(Duration.toMillis(elapsed)).toBeLessThan(1000)
      }

      yield* Deferred.succeed(release, undefined)
      expect(yield* Fiber.join(imported)).toEqual({ rows: 3000 })
    }).pipe(Effect.provide(store)))

  it.live("records a host writes in its own SqlClient transaction are stamped at its commit and delivered once", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient
      const organization = yield* freshOrganization
      const before = yield* drainExport(organization.id)
      // Not through the Transactor: the stamping must not depend on who commits.
      const written = yield* sql.withTransaction(
        Effect.all([recordChange(organization.id, "host-1"), recordChange(organization.id, "host-2")])
      )
      const after = yield* drainExport(organization.id, { maxResults: 1, from: before.resumeToken })
      expect(ids(after.records)).toEqual(ids(written))
      const [unstamped] = yield* sql<{ readonly n: number }>`
        SELECT count(*)::int AS n FROM audit_records WHERE organization_id = ${organization.id} AND stamp IS NULL`
      expect(unstamped!.n).toBe(0)
    }).pipe(Effect.provide(store)))

  it.live("a page token issued before migration 0800 (`xid:seq`) resumes exactly where it was", () =>
    Effect.gen(function*() {
      const organizationId = "org-legacy" as Ids.OrganizationId
      const client = yield* Layer.build(PgClient.layer({ url: Redacted.make(legacyUrl), maxConnections: 2 }))
      const sql = Context.get(client, SqlClient)
      // The schema as it was before stamps, with a log the old reader had partly delivered.
      const before = Object.fromEntries(Object.entries(migrations).filter(([name]) => name < "0800"))
      yield* Migrator.make({})({ loader: Migrator.fromRecord(before), table: MIGRATIONS_TABLE }).pipe(Effect.provide(client))
      yield* sql`INSERT INTO organizations (id, name, settings, created_at) VALUES (${organizationId}, 'Legacy', '{}', now())`
      const insert = (recordId: string) =>
        sql<{ readonly xid: string; readonly seq: string }>`
          INSERT INTO audit_records (id, organization_id, changed_at, kind, resource, table_name, record_id, operation,
            status, changed_by, changed_by_type)
          VALUES (${`audit-${recordId}`}, ${organizationId}, now(), 'resource', 'dashboards', 'dashboards', ${recordId},
            'update', 'success', 'system', 'system')
          RETURNING xid::text, seq::text`
      // Two writers committing out of insertion order: `late` is inserted first, committed last.
      const lateInserted = yield* Deferred.make<void>()
      const commitLate = yield* Deferred.make<void>()
      const late = yield* Effect.fork(sql.withTransaction(
        insert("late").pipe(Effect.zipLeft(Deferred.succeed(lateInserted, undefined)), Effect.zipLeft(Deferred.await(commitLate)))
      ))
      yield* Deferred.await(lateInserted)
      const [first] = yield* insert("first")
      yield* insert("second")
      yield* Deferred.succeed(commitLate, undefined)
      yield* Fiber.join(late)
      yield* insert("third")

      const migrated = yield* Layer.build(Core.layer.pipe(Layer.provideMerge(PgStore.layer({ url: legacyUrl }))))
      const resumeAfter = (position: string) =>
        Effect.gen(function*() {
          const secret = yield* (yield* Installation.InstallationRepo).cursorSecret
          const token = PageToken.encode(secret, { tenant: organizationId, binding: "asc", position })
          return (yield* drainExport(organizationId, { maxResults: 2, from: token })).records.map((r) => r.record_id)
        }).pipe(Effect.provide(migrated))
      // The old order was (xid, seq): `late` (the older transaction) came first.
      expect((yield* Effect.provide(drainExport(organizationId), migrated)).records.map((r) => r.record_id)).toEqual([
        "late",
        "first",
        "second",
        "third"
      ])
      expect(yield* resumeAfter(`${first!.xid}:${first!.seq}`)).toEqual(["second", "third"])
      // Records written after the migration follow the old ones.
      yield* Effect.provide(recordChange(organizationId, "new"), migrated)
      expect(yield* resumeAfter(`${first!.xid}:${first!.seq}`)).toEqual(["second", "third", "new"])
    }).pipe(Effect.scoped))
})
