/** The query parameters of `GET /v2/audit-logs`, and how they become core's export query. */
import { Audit, Listing } from "@costline/core"
import type { AuditLog } from "@costline/core"
import { ParseResult, Schema } from "effect"
import { DateTimeParam, integerParam, listParam, NonEmptyText, oneOfList, parseDateTime } from "../QueryParams.js"

/** `<start>,<end>`, both inclusive, start not after end. */
export const DateTimeRangeParam = Schema.transformOrFail(
  Schema.String,
  Schema.Struct({ start: Schema.DateFromSelf, end: Schema.DateFromSelf }),
  {
    strict: true,
    decode: (text, _, ast) => {
      const parts = text.split(",")
      const [start, end] = parts.map((part) => parseDateTime(part.trim()))
      if (parts.length !== 2 || start === undefined || end === undefined) {
        return ParseResult.fail(
          new ParseResult.Type(ast, text, "must be two ISO 8601 date-times separated by a comma: <start>,<end>")
        )
      }
      return start.getTime() <= end.getTime()
        ? ParseResult.succeed({ start, end })
        : ParseResult.fail(new ParseResult.Type(ast, text, "the start must not be after the end"))
    },
    encode: ({ end, start }) => ParseResult.succeed(`${start.toISOString()},${end.toISOString()}`)
  }
)

/**
 * Characters in a `changed_by__ilike` / `__not_ilike` pattern, at most: the store matches it with
 * SQL LIKE, whose work grows with the pattern. The same bound as usage filter values.
 */
export const MAX_CHANGED_BY_PATTERN = 1000

const ChangedByPattern = Schema.String.pipe(
  Schema.filter((pattern) =>
    Array.from(pattern).length <= MAX_CHANGED_BY_PATTERN || `must be at most ${MAX_CHANGED_BY_PATTERN} characters`
  )
)

export const AuditLogsParams = Schema.Struct({
  max_results: Schema.optionalWith(integerParam(1, Listing.MAX_PAGE_SIZE), { default: () => Listing.DEFAULT_PAGE_SIZE }),
  sort_order: Schema.optionalWith(Audit.SortOrder, { default: () => "asc" as const }),
  page_token: Schema.optional(Schema.String),
  changed_at__gte: Schema.optional(DateTimeParam),
  changed_at__lte: Schema.optional(DateTimeParam),
  changed_at__in_range: Schema.optional(DateTimeRangeParam),
  table_name__in: Schema.optional(listParam(NonEmptyText, "a table name")),
  event_type__in: Schema.optional(oneOfList(Audit.EventType)),
  resource__in: Schema.optional(oneOfList(Audit.ResourceName)),
  resource__not_in: Schema.optional(oneOfList(Audit.ResourceName)),
  operation__in: Schema.optional(oneOfList(Audit.Operation)),
  operation__not_in: Schema.optional(oneOfList(Audit.Operation)),
  status__in: Schema.optional(oneOfList(Audit.AuditStatus)),
  status__not_in: Schema.optional(oneOfList(Audit.AuditStatus)),
  id__in: Schema.optional(listParam(Schema.UUID, "a UUID")),
  changed_by__ilike: Schema.optional(ChangedByPattern),
  changed_by__not_ilike: Schema.optional(ChangedByPattern),
  changed_by__isnull: Schema.optional(Schema.BooleanFromString)
})
export type AuditLogsParams = typeof AuditLogsParams.Type

const latest = (a: Date | undefined, b: Date | undefined) => a === undefined || (b !== undefined && b > a) ? b : a
const earliest = (a: Date | undefined, b: Date | undefined) => a === undefined || (b !== undefined && b < a) ? b : a

/** `changed_at__in_range` narrows whatever `__gte` / `__lte` already say: every bound applies. */
export const toExportQuery = (params: AuditLogsParams): AuditLog.ExportQuery => ({
  order: params.sort_order,
  pageToken: params.page_token,
  maxResults: params.max_results,
  filters: {
    changed_at_gte: latest(params.changed_at__gte, params.changed_at__in_range?.start),
    changed_at_lte: earliest(params.changed_at__lte, params.changed_at__in_range?.end),
    table_name_in: params.table_name__in,
    event_type_in: params.event_type__in,
    resource_in: params.resource__in,
    resource_not_in: params.resource__not_in,
    operation_in: params.operation__in,
    operation_not_in: params.operation__not_in,
    status_in: params.status__in,
    status_not_in: params.status__not_in,
    id_in: params.id__in,
    changed_by_ilike: params.changed_by__ilike,
    changed_by_not_ilike: params.changed_by__not_ilike,
    changed_by_isnull: params.changed_by__isnull
  }
})
