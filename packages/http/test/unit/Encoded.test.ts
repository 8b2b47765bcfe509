/** The hand-written encoders of the hot responses equal `Schema.encode` of the declared schemas. */
import { Audit, Insight } from "@costline/core"
import { describe, expect, it } from "@effect/vitest"
import { Arbitrary, FastCheck, Schema } from "effect"
import { AuditLogPage, AuditRecordV2 } from "../../src/api/audit/Api.js"
import * as Encoded from "../../src/api/Encoded.js"
import { InsightPage } from "../../src/api/insights/Api.js"
import { toPage } from "../../src/api/Pages.js"

const RUNS = { numRuns: 300 }

/**
 * Both sides as the client receives them: the JSON text, parsed. Generated `Record<string,
 * unknown>` values can be objects of another prototype (an `__proto__` key), which `Schema.encode`
 * copies into a plain object and the direct encoder passes on; both serialise alike.
 */
const wire = (value: unknown): unknown => JSON.parse(JSON.stringify(value))

const sameWire = (direct: unknown, declared: unknown) => expect(wire(direct)).toStrictEqual(wire(declared))

const samePage = <A>(item: Schema.Schema<A, any>, page: Schema.Schema<any, any>, encode: (value: A) => unknown) =>
  FastCheck.assert(
    FastCheck.property(
      FastCheck.array(Arbitrary.make(item), { maxLength: 5 }),
      FastCheck.option(FastCheck.string(), { nil: null }),
      (items, pageToken) => {
        const declared = Schema.encodeSync(page)({ items, page_token: pageToken, row_count: items.length })
        sameWire(toPage({ items, page_token: pageToken }, encode), declared)
      }
    ),
    RUNS
  )

describe("Encoded", () => {
  it("auditRecord is Schema.encode of the exported record (no organization_id)", () =>
    FastCheck.assert(
      FastCheck.property(Arbitrary.make(Audit.AuditRecord), (record) => {
        sameWire(Encoded.auditRecord(record), Schema.encodeSync(AuditRecordV2)(record))
      }),
      RUNS
    ))

  it("insight is Schema.encode(Insight)", () =>
    FastCheck.assert(
      FastCheck.property(Arbitrary.make(Insight.Insight), (insight) => {
        sameWire(Encoded.insight(insight), Schema.encodeSync(Insight.Insight)(insight))
      }),
      RUNS
    ))

  it("an audit page is Schema.encode(AuditLogPage)", () => samePage(Audit.AuditRecord, AuditLogPage, Encoded.auditRecord))

  it("an insights page is Schema.encode of the list's page schema", () => samePage(Insight.Insight, InsightPage, Encoded.insight))
})
