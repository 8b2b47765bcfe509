/**
 * Contract: usage records (exact round trip, keyset scans, scans inside a transaction) and the
 * staged import built on them (whole or nothing, batches unseen until published, stale imports).
 */
import { describe, expect, type Vitest } from "@effect/vitest"
import { Duration, Effect, Stream, TestClock } from "effect"
import { Transactor, UsageImport, UsageRepo } from "@costline/core"
import type { Ids } from "@costline/core"
import { type ContractServices, freshOrganization } from "./Fixtures.js"
import { lines, scanAll, source, usage } from "./UsageFixtures.js"

export const usageRecordsContract = (it: Vitest.MethodsNonLive<ContractServices>) => {
  describe("usage records", () => {
    it.effect("round-trip every dimension exactly; a scan sees only its organization and month", () =>
      Effect.gen(function*() {
        const [organization, other] = [yield* freshOrganization, yield* freshOrganization]
        const repo = yield* UsageRepo.UsageRecordsRepo
        const full = usage("2024-05-31T23:59:59.999Z", 1.25, {
          warehouse_name: "ETL",
          warehouse_size: "X-Small",
          user_name: "loader",
          role_name: "SYSADMIN",
          database_name: "RAW",
          schema_name: "PUBLIC",
          query_tag: "nightly",
          query_type: "INSERT",
          service_type: "WAREHOUSE_METERING",
          is_serverless: false,
          execution_time_ms: 1500,
          bytes_scanned: 1e12,
          accessed_databases: ["RAW", "STAGE"],
          tags: { team: "data", "cost center": "42" },
          dbt_project: "core",
          dbt_model: "orders",
          account_name: "prod",
          region: "eu-west-1",
          dw_organization_name: "acme"
        })
        const sparse = usage("2024-05-01T00:00:00.000Z", 0, { is_serverless: true, user_name: null })
        yield* repo.insert(organization.id, [
          full,
          sparse,
          usage("2024-04-30T23:59:59.999Z", 7),
          usage("2024-06-01T00:00:00.000Z", 8)
        ])
        yield* repo.insert(other.id, [usage("2024-05-10T00:00:00Z", 9)])
        const { records } = yield* scanAll(organization.id, "2024-05")
        const byTime = [...records].sort((a, b) => a.start_time.getTime() - b.start_time.getTime())
        expect(byTime).toEqual([{ start_time: sparse.start_time, credits: 0, is_serverless: true }, full])
        expect((yield* scanAll(organization.id, "2024-03")).records).toEqual([])
      }))

    it.effect("a scan of more rows than a batch reads each of them once, also among other months' rows", () =>
      Effect.gen(function*() {
        const organization = yield* freshOrganization
        const repo = yield* UsageRepo.UsageRecordsRepo
        // Months interleaved, as a file that mixes them writes them: the month's rows are spread.
        const rows = Array.from({ length: 16_000 }, (_, i) =>
          usage(`2024-0${5 + (i % 3)}-0${1 + (i % 7)}T00:00:00Z`, 1, { query_tag: String(i) }))
        yield* repo.insert(organization.id, rows)
        const { batches, records } = yield* scanAll(organization.id, "2024-05")
        const expected = rows.filter((row) => row.start_time.getUTCMonth() === 4).map((row) => row.query_tag)
        expect(batches.length).toBeGreaterThan(1)
        expect(Math.max(...batches)).toBeLessThan(expected.length)
        expect(records.map((r) => r.query_tag).sort()).toEqual(expected.sort())
      }))

    it.effect("a scan inside a caller's transaction sees its uncommitted rows, and may run again after a failed batch", () =>
      Effect.gen(function*() {
        const organization = yield* freshOrganization
        const repo = yield* UsageRepo.UsageRecordsRepo
        yield* (yield* Transactor.Transactor).withTransaction(Effect.gen(function*() {
          yield* repo.insert(organization.id, [usage("2024-05-02T00:00:00Z", 2), usage("2024-05-03T00:00:00Z", 3)])
          const month = { organizationId: organization.id, from: new Date("2024-05-01T00:00:00Z"), to: new Date("2024-06-01T00:00:00Z") }
          const failed = yield* Effect.flip(repo.scan(month, () => Effect.fail("stop" as const)))
          expect(failed).toBe("stop")
          const { records } = yield* scanAll(organization.id, "2024-05")
          expect(records.map((r) => r.credits).sort()).toEqual([2, 3])
        }))
      }))
  })

  describe("usage import", () => {
    it.effect("imports a valid file whole, whatever its chunking and blank lines", () =>
      Effect.gen(function*() {
        const organization = yield* freshOrganization
        const text = lines(
          { start_time: "2024-05-02T10:00:00Z", credits: 2, warehouse_name: "ETL" },
          "",
          { start_time: "2024-05-03 11:00:00 +0200", credits: 3.5, tags: { team: "bi" } }
        )
        const summary = yield* (yield* UsageImport.UsageImport).run(organization.id, source(text))
        expect(summary).toEqual({ rows: 2 })
        const { records } = yield* scanAll(organization.id, "2024-05")
        expect(records).toEqual([
          usage("2024-05-02T10:00:00Z", 2, { warehouse_name: "ETL" }),
          usage("2024-05-03T09:00:00Z", 3.5, { tags: { team: "bi" } })
        ])
      }))

    it.effect("a file with bad rows imports nothing and names each bad line", () =>
      Effect.gen(function*() {
        const organization = yield* freshOrganization
        const text = lines(
          { start_time: "2024-05-02T10:00:00Z", credits: 2 },
          { start_time: "yesterday", credits: 1 },
          "{not json",
          { start_time: "2024-05-02T10:00:00Z", credits: 1, warehouse: "ETL" }
        )
        const failure = yield* Effect.flip((yield* UsageImport.UsageImport).run(organization.id, source(text)))
        expect(failure).toMatchObject({ _tag: "ValidationFailed" })
        if (failure._tag !== "ValidationFailed") return
        expect(failure.details.map((d) => d.field)).toEqual(["line 2", "line 3", "line 4"])
        expect(failure.message).toMatch(/^3 invalid rows of 4, nothing was imported: line 2: start_time: must be an ISO 8601/)
        expect(failure.details[2]!.message).toMatch(/^unknown column 'warehouse'/)
        expect((yield* scanAll(organization.id, "2024-05")).records).toEqual([])
      }))

    it.effect("a file that changes between validating and inserting imports nothing", () =>
      Effect.gen(function*() {
        const organization = yield* freshOrganization
        const versions = [
          lines({ start_time: "2024-05-02T10:00:00Z", credits: 2 }, { start_time: "2024-05-02T10:00:00Z", credits: 2 }),
          lines({ start_time: "2024-05-02T10:00:00Z", credits: 2 }, { start_time: "later", credits: 2 })
        ]
        const failure = yield* Effect.flip((yield* UsageImport.UsageImport).run(organization.id, source(() => versions.shift()!)))
        expect(failure).toMatchObject({ _tag: "ValidationFailed", details: [{ field: "file", issue: "changed" }] })
        expect((yield* scanAll(organization.id, "2024-05")).records).toEqual([])
      }))

    it.effect("rows are staged in batches of BATCH_SIZE, unseen until the last batch is published", () =>
      Effect.gen(function*() {
        const organization = yield* freshOrganization
        const total = 2 * UsageImport.BATCH_SIZE + 1
        const row = { start_time: "2024-05-02T10:00:00Z", credits: 1 }
        const staged: Array<number> = []
        const seenWhileStaging: Array<number> = []
        // The store's repository, watched: what each staged batch holds, and what a scan sees meanwhile.
        const watched = Effect.map(UsageRepo.UsageRecordsRepo, (repo) =>
          UsageRepo.UsageRecordsRepo.of({
            ...repo,
            stage: (organizationId, importId, records, now) =>
              Effect.gen(function*() {
                const seen = yield* Effect.provideService(scanAll(organization.id, "2024-05"), UsageRepo.UsageRecordsRepo, repo)
                seenWhileStaging.push(seen.records.length)
                staged.push(records.length)
                yield* repo.stage(organizationId, importId, records, now)
              })
          }))
        const importer = yield* Effect.provideServiceEffect(UsageImport.make, UsageRepo.UsageRecordsRepo, watched)
        const summary = yield* importer.run(organization.id, source(lines(...Array.from({ length: total }, () => row))))
        expect(summary).toEqual({ rows: total })
        expect(staged).toEqual([UsageImport.BATCH_SIZE, UsageImport.BATCH_SIZE, 1])
        expect(seenWhileStaging).toEqual([0, 0, 0])
        expect((yield* scanAll(organization.id, "2024-05")).records).toHaveLength(total)
      }))

    it.effect("a bad row late in the file, found after batches were staged, leaves nothing behind", () =>
      Effect.gen(function*() {
        const organization = yield* freshOrganization
        const good = Array.from({ length: 2 * UsageImport.BATCH_SIZE + 10 }, () => ({
          start_time: "2024-05-02T10:00:00Z",
          credits: 1
        }))
        const versions = [lines(...good, good[0]), lines(...good, { start_time: "later", credits: 1 })]
        const failure = yield* Effect.flip((yield* UsageImport.UsageImport).run(organization.id, source(() => versions.shift()!)))
        expect(failure).toMatchObject({ _tag: "ValidationFailed", details: [{ field: "file", issue: "changed" }] })
        expect((yield* scanAll(organization.id, "2024-05")).records).toEqual([])
        // The staged rows and the import itself are gone, not merely hidden.
        expect(yield* (yield* UsageRepo.UsageRecordsRepo).staleImports(new Date("2999-01-01T00:00:00Z"))).toEqual([])
      }))

    it.effect("an import left unpublished by a dead process is discarded by the next import once stale", () =>
      Effect.gen(function*() {
        const organization = yield* freshOrganization
        const repo = yield* UsageRepo.UsageRecordsRepo
        const startedAt = new Date("2024-06-01T00:00:00Z")
        yield* repo.beginImport(organization.id, "dead-import", startedAt)
        yield* repo.stage(organization.id, "dead-import", [usage("2024-05-02T10:00:00Z", 7)], startedAt)
        expect((yield* scanAll(organization.id, "2024-05")).records).toEqual([])
        expect(yield* repo.staleImports(new Date("2024-06-01T00:00:01Z"))).toContain("dead-import")

        yield* TestClock.setTime(startedAt.getTime() + Duration.toMillis(UsageImport.STALE_AFTER) + 1)
        yield* (yield* UsageImport.UsageImport).run(organization.id, source(lines({ start_time: "2024-05-03T10:00:00Z", credits: 1 })))
        expect(yield* repo.staleImports(new Date("2999-01-01T00:00:00Z"))).not.toContain("dead-import")
        // Published later by mistake, it would show nothing: its rows were deleted.
        yield* repo.publish("dead-import")
        expect((yield* scanAll(organization.id, "2024-05")).records.map((r) => r.credits)).toEqual([1])
      }))

    it.effect("a scan that began before an import was published does not see it", () =>
      Effect.gen(function*() {
        const organization = yield* freshOrganization
        const repo = yield* UsageRepo.UsageRecordsRepo
        const now = new Date("2024-06-01T00:00:00Z")
        yield* repo.insert(organization.id, [usage("2024-05-01T00:00:00Z", 1)])
        yield* repo.beginImport(organization.id, "racing-import", now)
        yield* repo.stage(organization.id, "racing-import", [usage("2024-05-02T00:00:00Z", 2)], now)
        const seen: Array<number> = []
        yield* repo.scan(
          { organizationId: organization.id, from: new Date("2024-05-01T00:00:00Z"), to: new Date("2024-06-01T00:00:00Z") },
          (records) => Effect.zipRight(repo.publish("racing-import"), Effect.sync(() => seen.push(...records.map((r) => r.credits))))
        )
        expect(seen).toEqual([1])
        expect((yield* scanAll(organization.id, "2024-05")).records.map((r) => r.credits).sort()).toEqual([1, 2])
      }))

    it.effect("an unknown organization is NotFound before the file is read", () =>
      Effect.gen(function*() {
        const opened: Array<number> = []
        const failure = yield* Effect.flip(
          (yield* UsageImport.UsageImport).run("org-that-does-not-exist" as Ids.OrganizationId, {
            format: "jsonl",
            open: () => Stream.fromEffect(Effect.sync(() => opened.push(1)).pipe(Effect.as("")))
          })
        )
        expect(failure._tag).toBe("NotFound")
        expect(opened).toEqual([])
      }))
  })
}
