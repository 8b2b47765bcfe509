/**
 * Contract: insights. Ingestion, the ETag-guarded update and view counting, checked through
 * core's services. The rules that must hold across server instances run against a second store
 * instance over the same database when the suite has one.
 */
import { describe, expect, type Vitest } from "@effect/vitest"
import { DateTime, Effect, Either, TestClock } from "effect"
import { Insight, InsightETag, Insights, InsightsRepo, Precondition } from "@costline/core"
import type { Identity, Ids } from "@costline/core"
import { type ContractServices, freshOrganization, ids, ifMatch } from "./Fixtures.js"
import {
  type AnotherInstance,
  ann,
  apiKey,
  concurrently,
  idleWarehouse,
  importer,
  insightRecords,
  instances,
  withInsight
} from "./InsightFixtures.js"
import { userPrincipal } from "./InsightSamples.js"

export const insightsContract = (it: Vitest.MethodsNonLive<ContractServices>, another?: AnotherInstance) => {
  describe("insights: ingestion", () => {
    it.effect("an upsert creates an open, unassigned insight with the ETag of its content, and audits it", () =>
      Effect.gen(function*() {
        const insights = yield* Insights.Insights
        const organization = yield* freshOrganization
        const result = yield* insights.upsert(importer, organization.id, idleWarehouse())
        expect(result._tag).toBe("Created")
        const created = result.insight
        expect(created).toMatchObject({
          insight_type: "warehouse_idle",
          resource_id: "WH_IDLE",
          status: "open",
          assignee: null,
          is_current: true,
          view_count: 0,
          first_viewed_by: null,
          last_viewed_at: null,
          details: { idle_hours: 14, warehouse_size: "LARGE" }
        })
        expect(created.etag).toBe(InsightETag.forInsight(created))
        expect(yield* insights.get(organization.id, created.id)).toEqual(created)
        const [record, ...more] = yield* insightRecords(organization.id)
        expect(more).toEqual([])
        expect(record).toMatchObject({
          table_name: "insights",
          record_id: created.id,
          operation: "create",
          changed_by: "importer@example.com",
          new_values: {
            insight_type: "warehouse_idle",
            status: "open",
            title: "Warehouse WH_IDLE is idle",
            potential_savings: 120
          }
        })
      }))

    it.effect("the same content again is no change: same ETag and update_time, no audit record", () =>
      Effect.gen(function*() {
        const { insight, organizationId } = yield* withInsight
        yield* TestClock.adjust("1 hour")
        // Key order inside `details` is no change of content.
        const again = idleWarehouse("WH_IDLE", { details: { warehouse_size: "LARGE", idle_hours: 14 } })
        const result = yield* (yield* Insights.Insights).upsert(importer, organizationId, again)
        expect(result._tag).toBe("Unchanged")
        expect(yield* (yield* Insights.Insights).get(organizationId, insight.id)).toEqual(insight)
        expect(yield* insightRecords(organizationId)).toHaveLength(1)
      }))

    it.effect("new content replaces the detector's fields; status, assignee and views stay; audited old and new", () =>
      Effect.gen(function*() {
        const insights = yield* Insights.Insights
        const { insight, organizationId } = yield* withInsight
        const triage = new Insight.InsightUpdate({ status: "in_progress", assignee: "ann@example.com" })
        const triaged = yield* insights.update(ann, organizationId, insight.id, triage, ifMatch(insight.etag))
        yield* insights.recordView(userPrincipal(organizationId, "ann@example.com"), organizationId, insight.id)
        yield* TestClock.adjust("1 hour")
        const refreshed = idleWarehouse("WH_IDLE", { potential_savings: 300, severity: "high" })
        const result = yield* insights.upsert(importer, organizationId, refreshed)
        expect(result._tag).toBe("Updated")
        const updated = yield* insights.get(organizationId, insight.id)
        expect(updated).toMatchObject({
          status: "in_progress",
          assignee: "ann@example.com",
          view_count: 1,
          potential_savings: 300,
          severity: "high"
        })
        expect(updated.etag).not.toBe(triaged.etag)
        expect(updated.etag).toBe(InsightETag.forInsight(updated))
        expect(DateTime.distance(triaged.update_time, updated.update_time)).toBe(3_600_000)
        expect(updated.create_time).toEqual(insight.create_time)
        expect((yield* insightRecords(organizationId)).at(-1)).toMatchObject({
          operation: "update",
          changed_by: "importer@example.com",
          old_values: { potential_savings: 120, severity: "medium" },
          new_values: { potential_savings: 300, severity: "high" }
        })
      }))

    it.effect("the key is (insight_type, resource_id) within an organization", () =>
      Effect.gen(function*() {
        const insights = yield* Insights.Insights
        const [organization, other] = [yield* freshOrganization, yield* freshOrganization]
        const first = yield* insights.upsert(importer, organization.id, idleWarehouse("WH_A"))
        const otherResource = yield* insights.upsert(importer, organization.id, idleWarehouse("WH_B"))
        const otherType = yield* insights.upsert(
          importer,
          organization.id,
          idleWarehouse("WH_A", { insight_type: "oversized_warehouse" })
        )
        const otherTenant = yield* insights.upsert(importer, other.id, idleWarehouse("WH_A"))
        const results = [first, otherResource, otherType, otherTenant]
        expect(results.map((result) => result._tag)).toEqual(["Created", "Created", "Created", "Created"])
        expect(new Set(ids(results.map((result) => result.insight))).size).toBe(4)
        expect((yield* Effect.flip(insights.get(other.id, first.insight.id)))._tag).toBe("NotFound")
      }))

    it.effect("an unknown organization is NotFound and nothing is written", () =>
      Effect.gen(function*() {
        const error = yield* Effect.flip((yield* Insights.Insights).upsert(importer, "org-unknown" as Ids.OrganizationId, idleWarehouse()))
        expect(error).toMatchObject({ _tag: "NotFound", resource: "organization" })
      }))

    it.scoped("of concurrent upserts of one new key, one creates the insight and the others find it", () =>
      Effect.gen(function*() {
        const services = yield* instances(another)
        const organization = yield* freshOrganization
        const results = yield* concurrently(services, 8, () =>
          Effect.flatMap(Insights.Insights, (insights) => insights.upsert(importer, organization.id, idleWarehouse())))
        const tags = results.map((result) => Either.getOrThrow(result)._tag)
        expect(tags.filter((tag) => tag === "Created")).toHaveLength(1)
        expect(tags.filter((tag) => tag === "Unchanged")).toHaveLength(7)
        expect(new Set(results.map((result) => Either.getOrThrow(result).insight.id)).size).toBe(1)
        expect(yield* insightRecords(organization.id)).toHaveLength(1)
      }))
  })

  describe("insights: update", () => {
    const assign = (assignee: string | null) => new Insight.InsightUpdate({ assignee })

    it.effect("applies the patch, gives the new state's ETag and the current time, and audits what changed", () =>
      Effect.gen(function*() {
        const insights = yield* Insights.Insights
        const { insight, organizationId } = yield* withInsight
        yield* TestClock.adjust("5 minutes")
        const patch = new Insight.InsightUpdate({ status: "resolved", assignee: "Ann@Example.com" })
        const updated = yield* insights.update(ann, organizationId, insight.id, patch, ifMatch(insight.etag))
        expect(updated).toMatchObject({ status: "resolved", assignee: "ann@example.com", title: insight.title })
        expect(updated.etag).toBe(InsightETag.forInsight(updated))
        expect(updated.etag).not.toBe(insight.etag)
        expect(updated.update_time).toEqual(DateTime.add(insight.update_time, { minutes: 5 }))
        expect(yield* insights.get(organizationId, insight.id)).toEqual(updated)
        expect((yield* insightRecords(organizationId)).at(-1)).toMatchObject({
          operation: "update",
          record_id: insight.id,
          changed_by: "ann@example.com",
          old_values: { status: "open", assignee: null },
          new_values: { status: "resolved", assignee: "ann@example.com" }
        })
      }))

    it.effect("If-Match is required; a malformed one is a validation failure", () =>
      Effect.gen(function*() {
        const insights = yield* Insights.Insights
        const { insight, organizationId } = yield* withInsight
        // What an edge sends the service: the header parsed as the insight requires it.
        const update = (header: string | undefined) =>
          Effect.flatMap(Precondition.required(header, "the insight"), (precondition) =>
            insights.update(ann, organizationId, insight.id, assign(null), precondition))
        const missing = yield* Effect.flip(update(undefined))
        expect(missing._tag).toBe("PreconditionRequired")
        const malformed = yield* Effect.flip(update("no quotes"))
        expect(malformed).toMatchObject({ _tag: "ValidationFailed", details: [{ field: "header.if-match" }] })
      }))

    it.effect("a stale or weak ETag is PreconditionFailed and changes nothing; `*` or a list with the current one matches", () =>
      Effect.gen(function*() {
        const insights = yield* Insights.Insights
        const { insight, organizationId } = yield* withInsight
        const first = yield* insights.update(ann, organizationId, insight.id, assign("ann@example.com"), ifMatch(insight.etag))
        for (const condition of [insight.etag, `W/${first.etag}`, `"other", ${insight.etag}`]) {
          const error = yield* Effect.flip(insights.update(ann, organizationId, insight.id, assign("bob@example.com"), ifMatch(condition)))
          expect(error._tag).toBe("PreconditionFailed")
        }
        expect(yield* insights.get(organizationId, insight.id)).toEqual(first)
        const inList = `"other", ${first.etag}`
        const listed = yield* insights.update(ann, organizationId, insight.id, assign("bob@example.com"), ifMatch(inList))
        const any = yield* insights.update(ann, organizationId, insight.id, assign("cy@example.com"), ifMatch("*"))
        expect([listed.assignee, any.assignee]).toEqual(["bob@example.com", "cy@example.com"])
      }))

    it.effect("a status move outside the transition table is InvalidTransition", () =>
      Effect.gen(function*() {
        const insights = yield* Insights.Insights
        const { insight, organizationId } = yield* withInsight
        const move = (status: "resolved" | "in_progress", etag: string) =>
          insights.update(ann, organizationId, insight.id, new Insight.InsightUpdate({ status }), ifMatch(etag))
        const resolved = yield* move("resolved", insight.etag)
        const error = yield* Effect.flip(move("in_progress", resolved.etag))
        expect(error).toMatchObject({ _tag: "InvalidTransition", from: "resolved", to: "in_progress" })
        expect((yield* insights.get(organizationId, insight.id)).status).toBe("resolved")
      }))

    it.effect("a patch that changes nothing returns the insight as it is, audits nothing and keeps update_time", () =>
      Effect.gen(function*() {
        const insights = yield* Insights.Insights
        const { insight, organizationId } = yield* withInsight
        yield* TestClock.adjust("1 minute")
        for (const patch of [new Insight.InsightUpdate({}), new Insight.InsightUpdate({ status: "open", assignee: null })]) {
          expect(yield* insights.update(ann, organizationId, insight.id, patch, ifMatch(insight.etag))).toEqual(insight)
        }
        expect(yield* insights.get(organizationId, insight.id)).toEqual(insight)
        expect(yield* insightRecords(organizationId)).toHaveLength(1)
      }))

    it.effect("an insight of another organization is NotFound", () =>
      Effect.gen(function*() {
        const { insight } = yield* withInsight
        const other = yield* freshOrganization
        const error = yield* Effect.flip((yield* Insights.Insights).update(ann, other.id, insight.id, assign(null), ifMatch("*")))
        expect(error._tag).toBe("NotFound")
      }))

    it.scoped("of concurrent updates sent with the same ETag exactly one succeeds", () =>
      Effect.gen(function*() {
        const services = yield* instances(another)
        const { insight, organizationId } = yield* withInsight
        const people = Array.from({ length: 8 }, (_, index) => `person${index}@example.com`)
        const results = yield* concurrently(services, people.length, (index) =>
          Effect.flatMap(Insights.Insights, (insights) =>
            insights.update(ann, organizationId, insight.id, assign(people[index]!), ifMatch(insight.etag))))
        const winners = results.flatMap((result) => (Either.isRight(result) ? [result.right] : []))
        expect(winners).toHaveLength(1)
        expect(results.filter(Either.isLeft).map((result) => result.left._tag)).toEqual(Array(7).fill("PreconditionFailed"))
        expect(yield* (yield* Insights.Insights).get(organizationId, insight.id)).toEqual(winners[0])
        expect(yield* insightRecords(organizationId)).toHaveLength(2)
      }))
    it.scoped("of 20 concurrent updates with If-Match `*` every one succeeds, each audited once", () =>
      Effect.gen(function*() {
        const services = yield* instances(another)
        const { insight, organizationId } = yield* withInsight
        const people = Array.from({ length: 20 }, (_, index) => `person${index}@example.com`)
        const results = yield* concurrently(services, people.length, (index) =>
          Effect.flatMap(Insights.Insights, (insights) => insights.update(ann, organizationId, insight.id, assign(people[index]!), ifMatch("*"))))
        expect(results.filter(Either.isLeft).map((result) => result.left._tag)).toEqual([])
        const assigned = results.flatMap((result) => (Either.isRight(result) ? [result.right.assignee] : []))
        expect(new Set(assigned)).toEqual(new Set(people))
        // The create, then one update record per request, each from the state the one before left.
        const updates = (yield* insightRecords(organizationId)).filter((record) => record.operation === "update")
        expect(updates.map((record) => record.new_values?.["assignee"]).sort()).toEqual([...people].sort())
        expect(people).toContain((yield* (yield* Insights.Insights).get(organizationId, insight.id)).assignee)
      }))

    it.scoped("the compare-and-set is one statement: of writes expecting one ETag, exactly one lands", () =>
      Effect.gen(function*() {
        const services = yield* instances(another)
        const { insight, organizationId } = yield* withInsight
        const results = yield* concurrently(services, 8, (index) =>
          Effect.flatMap(InsightsRepo.InsightsRepo, (repo) =>
            repo.updateIfEtag({
              organizationId,
              id: insight.id,
              expectedEtag: insight.etag,
              set: { status: "open", assignee: `person${index}@example.com` },
              newEtag: `"etag-${index}"`,
              updateTime: insight.update_time
            })))
        const outcomes = results.map(Either.getOrThrow)
        const landed = outcomes.flatMap((outcome) => (outcome._tag === "Updated" ? [outcome.insight] : []))
        expect(landed).toHaveLength(1)
        expect(outcomes.filter((outcome) => outcome._tag === "Stale")).toHaveLength(7)
        expect(yield* (yield* Insights.Insights).get(organizationId, insight.id)).toEqual(landed[0])
      }))
  })

  describe("insights: views", () => {
    it.effect("a user's views set first and last viewer; the count grows once per UTC day, across midnight too", () =>
      Effect.gen(function*() {
        const insights = yield* Insights.Insights
        yield* TestClock.setTime(Date.parse("2024-03-10T23:59:00Z"))
        const { insight, organizationId } = yield* withInsight
        const annViews = userPrincipal(organizationId, "ann@example.com")
        const bobViews = userPrincipal(organizationId, "bob@example.com")
        const view = (viewer: Identity.Principal) => insights.recordView(viewer, organizationId, insight.id)
        const read = insights.get(organizationId, insight.id)

        yield* view(annViews)
        yield* TestClock.adjust("30 seconds")
        yield* view(annViews)
        const sameDay = yield* read
        expect(sameDay).toMatchObject({ view_count: 1, first_viewed_by: "ann@example.com", last_viewed_by: "ann@example.com" })
        expect(sameDay.first_viewed_at).toEqual(DateTime.unsafeMake("2024-03-10T23:59:00Z"))
        expect(sameDay.last_viewed_at).toEqual(DateTime.unsafeMake("2024-03-10T23:59:30Z"))

        yield* TestClock.adjust("31 seconds")
        yield* view(annViews)
        yield* view(bobViews)
        const nextDay = yield* read
        expect(nextDay).toMatchObject({ view_count: 3, first_viewed_by: "ann@example.com", last_viewed_by: "bob@example.com" })
        expect(nextDay.last_viewed_at).toEqual(DateTime.unsafeMake("2024-03-11T00:00:01Z"))
        // A view is not an edit.
        expect([nextDay.etag, nextDay.update_time]).toEqual([insight.etag, insight.update_time])
        expect(yield* insightRecords(organizationId)).toHaveLength(1)
      }))

    it.effect("an API key's call records nothing, but the insight must exist in its organization", () =>
      Effect.gen(function*() {
        const insights = yield* Insights.Insights
        const { insight, organizationId } = yield* withInsight
        yield* insights.recordView(apiKey(organizationId), organizationId, insight.id)
        expect(yield* insights.get(organizationId, insight.id)).toEqual(insight)
        const other = yield* freshOrganization
        for (const viewer of [apiKey(other.id), userPrincipal(other.id, "ann@example.com")]) {
          expect((yield* Effect.flip(insights.recordView(viewer, other.id, insight.id)))._tag).toBe("NotFound")
        }
        expect((yield* insights.get(organizationId, insight.id)).view_count).toBe(0)
      }))

    it.scoped("concurrent views of one user on one day count once", () =>
      Effect.gen(function*() {
        const services = yield* instances(another)
        const { insight, organizationId } = yield* withInsight
        const results = yield* concurrently(services, 10, () =>
          Effect.flatMap(Insights.Insights, (insights) =>
            insights.recordView(userPrincipal(organizationId, "ann@example.com"), organizationId, insight.id)))
        expect(results.every(Either.isRight)).toBe(true)
        const viewed = yield* (yield* Insights.Insights).get(organizationId, insight.id)
        expect(viewed).toMatchObject({ view_count: 1, first_viewed_by: "ann@example.com", last_viewed_by: "ann@example.com" })
      }))
  })
}
