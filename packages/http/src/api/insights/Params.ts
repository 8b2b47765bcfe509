/** The query parameters of `GET /v2/insights`, and how they become core's list query. */
import { Audit, Construct, Insight, Listing, StorableText } from "@costline/core"
import { DateTime, Schema } from "effect"
import { DateTimeParam, integerParam, listParam, NonEmptyText, oneOfList } from "../QueryParams.js"

/** People are matched by email; stored emails are lower case, so the filter is lowered too. */
const PeopleParam = listParam(StorableText.storable(NonEmptyText), "an email address", Insight.MAX_ANY_OF)
const ViewCountParam = integerParam(0, Number.MAX_SAFE_INTEGER)

export const InsightsParams = Schema.Struct({
  sort_by: Schema.optionalWith(Insight.InsightSortBy, { default: () => "create_time" as const }),
  sort_order: Schema.optionalWith(Audit.SortOrder, { default: () => "desc" as const }),
  page_token: Schema.optional(Schema.String),
  max_results: Schema.optionalWith(integerParam(1, Listing.MAX_PAGE_SIZE), { default: () => Listing.DEFAULT_PAGE_SIZE }),
  status__in: Schema.optional(oneOfList(Insight.InsightStatus, Insight.MAX_ANY_OF)),
  assignee__in: Schema.optional(PeopleParam),
  insight_type__in: Schema.optional(oneOfList(Insight.InsightType, Insight.MAX_ANY_OF)),
  first_viewed_by__in: Schema.optional(PeopleParam),
  last_viewed_by__in: Schema.optional(PeopleParam),
  is_current: Schema.optional(Schema.BooleanFromString),
  resource_type: Schema.optional(StorableText.StorableString),
  dw_id: Schema.optional(StorableText.StorableString),
  connection_id: Schema.optional(StorableText.StorableString),
  view_count__gte: Schema.optional(ViewCountParam),
  view_count__lte: Schema.optional(ViewCountParam),
  first_viewed_at__gte: Schema.optional(DateTimeParam),
  first_viewed_at__lte: Schema.optional(DateTimeParam),
  last_viewed_at__gte: Schema.optional(DateTimeParam),
  last_viewed_at__lte: Schema.optional(DateTimeParam)
})
export type InsightsParams = typeof InsightsParams.Type

const lowered = (values: ReadonlyArray<string> | undefined) => values?.map((value) => value.toLowerCase())
const instant = (date: Date | undefined) => (date === undefined ? undefined : DateTime.unsafeFromDate(date))

/** Absent parameters are no filter; `exactOptionalPropertyTypes` wants them left out, not undefined. */
const present = <A extends object>(record: A) =>
  Object.fromEntries(Object.entries(record).filter(([, value]) => value !== undefined)) as {
    [K in keyof A]?: Exclude<A[K], undefined>
  }

/** Built on every list request: its validator is compiled once (`Construct`). */
const listQuery = Construct.validatedOnce(Insight.InsightListQuery)

export const toListQuery = (params: InsightsParams): Insight.InsightListQuery => {
  const filters: Insight.InsightFilters = present({
    status__in: params.status__in,
    assignee__in: lowered(params.assignee__in),
    insight_type__in: params.insight_type__in,
    first_viewed_by__in: lowered(params.first_viewed_by__in),
    last_viewed_by__in: lowered(params.last_viewed_by__in),
    is_current: params.is_current,
    resource_type: params.resource_type,
    dw_id: params.dw_id,
    connection_id: params.connection_id,
    view_count__gte: params.view_count__gte,
    view_count__lte: params.view_count__lte,
    first_viewed_at__gte: instant(params.first_viewed_at__gte),
    first_viewed_at__lte: instant(params.first_viewed_at__lte),
    last_viewed_at__gte: instant(params.last_viewed_at__gte),
    last_viewed_at__lte: instant(params.last_viewed_at__lte)
  })
  return listQuery({
    filters,
    sort_by: params.sort_by,
    sort_order: params.sort_order,
    max_results: params.max_results,
    ...(params.page_token === undefined ? {} : { page_token: params.page_token })
  })
}
