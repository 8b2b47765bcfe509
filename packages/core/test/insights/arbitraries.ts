/** Generators of insight states shared by the insight tests. */
import { DateTime, FastCheck as fc } from "effect"
import {
  type DetectorContent,
  Insight,
  InsightId,
  InsightStatus,
  InsightType,
  InsightUpsert,
  Severity,
  type UserEditable
} from "../../src/insights/Domain.js"
import * as ETag from "../../src/insights/ETag.js"

export const status = fc.constantFrom(...InsightStatus.literals)
export const email = fc.emailAddress()
const text = fc.string({ maxLength: 20 })
const nonBlank = fc.string({ minLength: 1, maxLength: 20 }).map((s) => `x${s.trim()}`)

export const userEditable: fc.Arbitrary<UserEditable> = fc.record({
  status,
  assignee: fc.option(email, { nil: null })
})

export const detectorContent: fc.Arbitrary<DetectorContent> = fc.record({
  title: nonBlank,
  description: text,
  severity: fc.constantFrom(...Severity.literals),
  is_current: fc.boolean(),
  resource_type: nonBlank,
  resource_id: nonBlank,
  dw_id: fc.option(text, { nil: null }),
  connection_id: fc.option(text, { nil: null }),
  potential_savings: fc.option(fc.double({ min: 0, max: 1e9, noNaN: true }), { nil: null }),
  // As JSON carries it: fc.jsonValue also yields -0, which JSON writes as 0 (a flaky round trip).
  details: fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 2 }).map((value) => JSON.parse(JSON.stringify(value))), { maxKeys: 4 })
})

export const EDITABLE_FIELDS = [
  "status",
  "assignee",
  "title",
  "description",
  "severity",
  "is_current",
  "resource_type",
  "resource_id",
  "dw_id",
  "connection_id",
  "potential_savings",
  "details"
] as const

export const editableState = fc.tuple(userEditable, detectorContent).map(([user, content]) => ({ ...user, ...content }))

const instant = fc.integer({ min: Date.UTC(2020, 0, 1), max: Date.UTC(2030, 0, 1) }).map((ms) => DateTime.unsafeMake(ms))

/** Whatever a stored insight carries besides its editable state. */
export const bookkeeping = fc.record({
  id: fc.uuid().map((id) => InsightId.make(id)),
  insight_type: fc.constantFrom(...InsightType.literals),
  create_time: instant,
  update_time: instant,
  first_viewed_by: fc.option(email, { nil: null }),
  last_viewed_by: fc.option(email, { nil: null }),
  first_viewed_at: fc.option(instant, { nil: null }),
  last_viewed_at: fc.option(instant, { nil: null }),
  view_count: fc.nat()
})

/** A stored insight whose ETag is the one of its state, as every stored insight's is. */
export const insight = fc.tuple(bookkeeping, editableState).map(([rest, state]) =>
  new Insight({ ...rest, ...state, etag: ETag.forInsight(state) })
)

export const upsertFor = (type: InsightType, content: DetectorContent) =>
  new InsightUpsert({ insight_type: type, ...content })
