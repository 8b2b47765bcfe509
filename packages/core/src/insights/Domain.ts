/**
 * Insights: cost-saving findings produced by detectors and imports, triaged by users.
 * Field names are the API's (API-DECISIONS.md "Insights"), so these schemas are also the wire shapes.
 */
import { Schema } from "effect"
import { SortOrder } from "../audit/Domain.js"
import { Email } from "../identity/Domain.js"
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from "../shared/Listing.js"
import { isStorableJson, storable, StorableString } from "../shared/StorableText.js"

/** Unknown fields are an error, not silently dropped: a typo in a patch must not look like success. */
const strict = { parseOptions: { onExcessProperty: "error" } } as const

// `exact`: an absent field is absent, never `undefined`; a wrong value then yields one issue at
// its own path instead of an extra "expected undefined" issue.
const optional = <S extends Schema.Schema.All>(schema: S) => Schema.optionalWith(schema, { exact: true })
const withDefault = <S extends Schema.Schema.All>(schema: S, value: () => Schema.Schema.Type<S>) =>
  Schema.optionalWith(schema, { exact: true, default: value })

/**
 * @since 0.1.0
 * @category schemas
 */
export const InsightId = Schema.UUID.pipe(Schema.brand("InsightId"))
/**
 * @since 0.1.0
 * @category models
 */
export type InsightId = typeof InsightId.Type

/**
 * @since 0.1.0
 * @category schemas
 */
export const InsightType = Schema.Literal(
  "warehouse_idle",
  "oversized_warehouse",
  "query_remote_spill",
  "query_local_spill",
  "poor_partition_pruning",
  "select_star",
  "repeated_query",
  "exploding_join",
  "unbounded_sort",
  "union_without_all",
  "cartesian_join",
  "queued_warehouse",
  "budget_exceeded",
  "unused_table"
)
/**
 * @since 0.1.0
 * @category models
 */
export type InsightType = typeof InsightType.Type

/**
 * @since 0.1.0
 * @category schemas
 */
export const InsightStatus = Schema.Literal("open", "in_progress", "resolved", "dismissed")
/**
 * @since 0.1.0
 * @category models
 */
export type InsightStatus = typeof InsightStatus.Type

/**
 * @since 0.1.0
 * @category schemas
 */
export const Severity = Schema.Literal("low", "medium", "high")
/**
 * @since 0.1.0
 * @category models
 */
export type Severity = typeof Severity.Type

/** Estimated credits per month; null when the detector cannot estimate. */
const PotentialSavings = Schema.NullOr(Schema.NonNegative.pipe(Schema.finite()))
/** Detector-specific facts; any JSON object the stores can keep. */
const Details = Schema.Record({ key: Schema.String, value: Schema.Unknown }).pipe(
  Schema.filter(isStorableJson, {
    message: () => "must be a JSON object of finite numbers and text without NUL characters or unpaired surrogates",
    // Generated values satisfy the filter by construction: filtering random `unknown`s would
    // sometimes yield a value the class constructor then refuses (a flaky property test).
    arbitrary: () => (fc) =>
      fc.dictionary(fc.string(), fc.oneof(fc.string(), fc.integer(), fc.boolean(), fc.constant(null)))
  })
)
/** An email as stored: the stores cannot keep every string an email pattern admits. */
const Person = storable(Email)

/**
 * @since 0.1.0
 * @category models
 */
export class Insight extends Schema.Class<Insight>("Insight")({
  id: InsightId,
  insight_type: InsightType,
  title: Schema.String,
  description: Schema.String,
  status: InsightStatus,
  assignee: Schema.NullOr(Email),
  is_current: Schema.Boolean,
  severity: Severity,
  resource_type: Schema.String,
  resource_id: Schema.String,
  dw_id: Schema.NullOr(Schema.String),
  connection_id: Schema.NullOr(Schema.String),
  potential_savings: PotentialSavings,
  details: Details,
  create_time: Schema.DateTimeUtc,
  update_time: Schema.DateTimeUtc,
  first_viewed_by: Schema.NullOr(Email),
  last_viewed_by: Schema.NullOr(Email),
  first_viewed_at: Schema.NullOr(Schema.DateTimeUtc),
  last_viewed_at: Schema.NullOr(Schema.DateTimeUtc),
  view_count: Schema.NonNegativeInt,
  etag: Schema.String
}) {}

/**
 * What users may change. Together with `DetectorContent` it is everything the ETag covers.
 * @since 0.1.0
 * @category models
 */
export type UserEditable = Pick<Insight, "status" | "assignee">

/**
 * What detectors and imports own; an upsert replaces exactly these fields.
 * @since 0.1.0
 * @category models
 */
export type DetectorContent = Pick<
  Insight,
  | "title"
  | "description"
  | "severity"
  | "is_current"
  | "resource_type"
  | "resource_id"
  | "dw_id"
  | "connection_id"
  | "potential_savings"
  | "details"
>

/**
 * @since 0.1.0
 * @category models
 */
export type InsightEditableState = UserEditable & DetectorContent

/**
 * Exactly the detector-owned fields of an insight or an upsert, field by field.
 * @since 0.1.0
 * @category utils
 */
export const detectorContentOf = (value: DetectorContent): DetectorContent => ({
  title: value.title,
  description: value.description,
  severity: value.severity,
  is_current: value.is_current,
  resource_type: value.resource_type,
  resource_id: value.resource_id,
  dw_id: value.dw_id,
  connection_id: value.connection_id,
  potential_savings: value.potential_savings,
  details: value.details
})

/**
 * `PATCH /insights/{id}`: a JSON merge patch. Absent = unchanged; `assignee: null` unassigns.
 * @since 0.1.0
 * @category models
 */
export class InsightUpdate extends Schema.Class<InsightUpdate>("InsightUpdate")(
  Schema.Struct({
    status: optional(InsightStatus),
    assignee: optional(Schema.NullOr(Person))
  }).annotations(strict)
) {}

const NonEmptyText = (maxLength: number) =>
  storable(Schema.Trim.pipe(Schema.nonEmptyString(), Schema.maxLength(maxLength)))

/**
 * What a detector or an import sends. Keyed by (`insight_type`, `resource_id`) within a tenant.
 * @since 0.1.0
 * @category models
 */
export class InsightUpsert extends Schema.Class<InsightUpsert>("InsightUpsert")(
  Schema.Struct({
    insight_type: InsightType,
    resource_type: NonEmptyText(200),
    resource_id: NonEmptyText(1000),
    title: NonEmptyText(500),
    description: storable(Schema.String.pipe(Schema.maxLength(20_000))),
    severity: Severity,
    is_current: withDefault(Schema.Boolean, () => true),
    dw_id: withDefault(Schema.NullOr(StorableString), () => null),
    connection_id: withDefault(Schema.NullOr(StorableString), () => null),
    potential_savings: withDefault(PotentialSavings, () => null),
    details: withDefault(Details, () => ({}))
  }).annotations(strict)
) {}

/**
 * The upsert whose merge gives `insight` back: its detector-owned fields, whole.
 * @since 0.1.0
 * @category utils
 */
export const upsertOf = (insight: Insight): InsightUpsert =>
  InsightUpsert.make({
    insight_type: insight.insight_type,
    resource_type: insight.resource_type,
    resource_id: insight.resource_id,
    title: insight.title,
    description: insight.description,
    severity: insight.severity,
    is_current: insight.is_current,
    dw_id: insight.dw_id,
    connection_id: insight.connection_id,
    potential_savings: insight.potential_savings,
    details: insight.details
  })

/**
 * The most values an `__in` list may hold. Each value is one bound parameter of the list's SQL
 * statement, and the stores refuse a statement with too many (SQLite 32,766, Postgres 65,535):
 * a 1 MiB body could otherwise carry a list the store refuses, answered 500.
 * @since 0.1.0
 * @category constants
 */
export const MAX_ANY_OF = 1000

/** An `__in` list; reported at the list itself when empty or longer than MAX_ANY_OF. */
const AnyOf = <S extends Schema.Schema.Any>(item: S) =>
  Schema.Array(item).pipe(Schema.minItems<Schema.Array$<S>>(1), Schema.maxItems<Schema.filter<Schema.Array$<S>>>(MAX_ANY_OF))
/** Person filters compare with stored emails, which are normalised to lower case. */
const PersonFilter = AnyOf(storable(Schema.Lowercase))

/**
 * The filters of `GET /insights` and of `InsightQuery.filters`, JSON-typed (the HTTP layer turns
 * comma-separated query parameters into arrays). Every present filter must hold (AND); `__in`
 * lists are non-empty because an empty one is ambiguous (match nothing, or no filter?).
 * @since 0.1.0
 * @category schemas
 */
export const InsightFilters = Schema.Struct({
  status__in: optional(AnyOf(InsightStatus)),
  assignee__in: optional(PersonFilter),
  insight_type__in: optional(AnyOf(InsightType)),
  first_viewed_by__in: optional(PersonFilter),
  last_viewed_by__in: optional(PersonFilter),
  is_current: optional(Schema.Boolean),
  resource_type: optional(StorableString),
  dw_id: optional(StorableString),
  connection_id: optional(StorableString),
  view_count__gte: optional(Schema.NonNegativeInt),
  view_count__lte: optional(Schema.NonNegativeInt),
  first_viewed_at__gte: optional(Schema.DateTimeUtc),
  first_viewed_at__lte: optional(Schema.DateTimeUtc),
  last_viewed_at__gte: optional(Schema.DateTimeUtc),
  last_viewed_at__lte: optional(Schema.DateTimeUtc)
}).annotations(strict)
/**
 * @since 0.1.0
 * @category models
 */
export type InsightFilters = typeof InsightFilters.Type

/**
 * @since 0.1.0
 * @category schemas
 */
export const InsightSortBy = Schema.Literal("create_time", "update_time")
/**
 * @since 0.1.0
 * @category models
 */
export type InsightSortBy = typeof InsightSortBy.Type

/**
 * @since 0.1.0
 * @category models
 */
export class InsightListQuery extends Schema.Class<InsightListQuery>("InsightListQuery")({
  filters: withDefault(InsightFilters, () => ({})),
  sort_by: withDefault(InsightSortBy, () => "create_time" as const),
  sort_order: withDefault(SortOrder, () => "desc" as const),
  max_results: withDefault(Schema.Int.pipe(Schema.between(1, MAX_PAGE_SIZE)), () => DEFAULT_PAGE_SIZE),
  page_token: optional(Schema.String)
}) {}

/**
 * @since 0.1.0
 * @category schemas
 */
export const InsightDimension = Schema.Literal(
  "insight_type",
  "status",
  "assignee",
  "severity",
  "resource_type",
  "dw_id",
  "connection_id",
  "is_current",
  /** UTC calendar day of `create_time`, `YYYY-MM-DD`. */
  "create_day",
  /** UTC calendar month of `create_time`, `YYYY-MM`. */
  "create_month"
)
/**
 * @since 0.1.0
 * @category models
 */
export type InsightDimension = typeof InsightDimension.Type

/**
 * @since 0.1.0
 * @category schemas
 */
export const InsightMeasure = Schema.Literal("count", "potential_savings_sum", "potential_savings_avg", "view_count_sum")
/**
 * @since 0.1.0
 * @category models
 */
export type InsightMeasure = typeof InsightMeasure.Type

/**
 * @since 0.1.0
 * @category models
 */
export class InsightOrderBy extends Schema.Class<InsightOrderBy>("InsightOrderBy")(
  Schema.Struct({
    field: Schema.String,
    direction: withDefault(SortOrder, () => "asc" as const)
  }).annotations(strict)
) {}

interface QueryShape {
  readonly dimensions: ReadonlyArray<string>
  readonly measures: ReadonlyArray<string>
  readonly order_by: ReadonlyArray<{ readonly field: string }>
}

/** Positions of values that already appeared earlier in the list. */
const repeatedAt = (values: ReadonlyArray<string>): Array<number> =>
  values.flatMap((value, index) => values.indexOf(value) < index ? [index] : [])

/** The rules across fields, each reported at the exact element it concerns. */
const queryIssues = (query: QueryShape): Array<Schema.FilterIssue> => {
  if (query.dimensions.length === 0 && query.measures.length === 0) {
    return [{ path: [], message: "request at least one dimension or measure" }]
  }
  const requested = new Set([...query.dimensions, ...query.measures])
  const orderFields = query.order_by.map((order) => order.field)
  const twice = (path: Schema.FilterIssue["path"], value: string) => ({ path, message: `'${value}' is listed twice` })
  return [
    ...repeatedAt(query.dimensions).map((i) => twice(["dimensions", i], query.dimensions[i]!)),
    ...repeatedAt(query.measures).map((i) => twice(["measures", i], query.measures[i]!)),
    ...orderFields.flatMap((field, i) =>
      requested.has(field) ? [] : [{
        path: ["order_by", i, "field"],
        message: `'${field}' is not one of the requested dimensions or measures`
      }]
    ),
    ...repeatedAt(orderFields).map((i) => twice(["order_by", i, "field"], orderFields[i]!))
  ]
}

/**
 * `POST /insights/actions/query`: one row per combination of the dimensions, with the measures.
 * Without `order_by` rows come in ascending order of the dimensions, so the cut at `limit` is stable.
 * @since 0.1.0
 * @category models
 */
export class InsightQuery extends Schema.Class<InsightQuery>("InsightQuery")(
  Schema.Struct({
    dimensions: withDefault(Schema.Array(InsightDimension), () => []),
    measures: withDefault(Schema.Array(InsightMeasure), () => []),
    filters: withDefault(InsightFilters, () => ({})),
    order_by: withDefault(Schema.Array(InsightOrderBy), () => []),
    limit: withDefault(Schema.Int.pipe(Schema.between(1, 10_000)), () => 1000)
  }).annotations(strict).pipe(Schema.filter(queryIssues))
) {}

/**
 * A result row keyed by dimension and measure names; sums and averages over no values are null.
 * @since 0.1.0
 * @category models
 */
export type InsightQueryRow = {
  readonly [K in InsightDimension | InsightMeasure]?: string | number | boolean | null
}
