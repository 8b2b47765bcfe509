/**
 * Query analysis and code changes: the request and response shapes of `analyze-query` and
 * `generate-code-change` (API-DECISIONS.md, "Query analysis and code changes").
 */
import { Schema } from "effect"
import { type InsightType, Severity } from "../insights/Domain.js"

/**
 * The SQL dialects a caller may name; Snowflake when none is given.
 * @since 0.1.0
 * @category schemas
 */
export const Dialect = Schema.Literal("snowflake", "databricks", "bigquery", "postgres")
/**
 * @since 0.1.0
 * @category models
 */
export type Dialect = typeof Dialect.Type

/**
 * Room for large generated SQL; parsing this much already takes up to about a second.
 * @since 0.1.0
 * @category constants
 */
export const MAX_QUERY_LENGTH = 100_000

/**
 * @since 0.1.0
 * @category schemas
 */
export const QueryText = Schema.String.pipe(
  Schema.filter((s) => s.trim().length > 0, { message: () => "must not be empty" }),
  Schema.maxLength(MAX_QUERY_LENGTH)
)

const Count = Schema.NonNegativeInt
const Milliseconds = Schema.Finite.pipe(Schema.nonNegative())

/**
 * Execution statistics of one run (Snowflake QUERY_HISTORY names); every field is optional.
 * @since 0.1.0
 * @category schemas
 */
export const QueryStatistics = Schema.Struct({
  execution_time_ms: Schema.optional(Milliseconds),
  compilation_time_ms: Schema.optional(Milliseconds),
  queued_time_ms: Schema.optional(Milliseconds),
  bytes_scanned: Schema.optional(Count),
  bytes_spilled_local: Schema.optional(Count),
  bytes_spilled_remote: Schema.optional(Count),
  partitions_scanned: Schema.optional(Count),
  partitions_total: Schema.optional(Count),
  /** Extension: rows read from tables, the baseline against which `exploding_join` compares. */
  rows_scanned: Schema.optional(Count),
  rows_produced: Schema.optional(Count),
  /** A fraction from 0 to 1, as Snowflake reports it despite the name. */
  percentage_scanned_from_cache: Schema.optional(Schema.Finite.pipe(Schema.between(0, 1))),
  warehouse_size: Schema.optional(Schema.String.pipe(Schema.maxLength(32))),
  credits_used: Schema.optional(Schema.Finite.pipe(Schema.nonNegative()))
}).annotations({ identifier: "QueryStatistics" })
/**
 * @since 0.1.0
 * @category models
 */
export type QueryStatistics = typeof QueryStatistics.Type

/**
 * @since 0.1.0
 * @category models
 */
export class AnalyzeQueryRequest extends Schema.Class<AnalyzeQueryRequest>("AnalyzeQueryRequest")({
  query_text: QueryText,
  dialect: Schema.optionalWith(Dialect, { default: () => "snowflake" as const }),
  query_id: Schema.optional(Schema.String.pipe(Schema.maxLength(256))),
  dw_id: Schema.optional(Schema.String.pipe(Schema.maxLength(256))),
  statistics: Schema.optional(QueryStatistics)
}) {}

/** Opportunities a rewrite of the query text can address. */
const QUERY_LEVEL = [
  "select_star",
  "cartesian_join",
  "exploding_join",
  "unbounded_sort",
  "union_without_all",
  "poor_partition_pruning",
  "query_local_spill",
  "query_remote_spill"
] as const satisfies ReadonlyArray<InsightType>

/** Opportunities fixed by warehouse settings (size, concurrency) or by caching results, not by changing the SQL. */
const EXECUTION_LEVEL = [
  "oversized_warehouse",
  "queued_warehouse",
  "repeated_query"
] as const satisfies ReadonlyArray<InsightType>

/**
 * The insight types (a subset of the stored ones) that analyzing one query can report.
 * @since 0.1.0
 * @category schemas
 */
export const QueryInsightType = Schema.Literal(...QUERY_LEVEL, ...EXECUTION_LEVEL)
/**
 * @since 0.1.0
 * @category models
 */
export type QueryInsightType = typeof QueryInsightType.Type

/**
 * @since 0.1.0
 * @category constants
 */
export const QUERY_LEVEL_INSIGHT_TYPES: ReadonlySet<QueryInsightType> = new Set(QUERY_LEVEL)

/**
 * @since 0.1.0
 * @category schemas
 */
export const EvidenceValue = Schema.Union(Schema.String, Schema.Number, Schema.Boolean, Schema.Array(Schema.String))
/**
 * @since 0.1.0
 * @category models
 */
export type EvidenceValue = typeof EvidenceValue.Type

/**
 * @since 0.1.0
 * @category schemas
 */
export const Evidence = Schema.Record({ key: Schema.String, value: EvidenceValue })
/**
 * @since 0.1.0
 * @category models
 */
export type Evidence = typeof Evidence.Type

/**
 * 1-based position in the query text.
 * @since 0.1.0
 * @category schemas
 */
export const SourceLocation = Schema.Struct({
  line: Schema.Int.pipe(Schema.positive()),
  column: Schema.Int.pipe(Schema.positive())
})
/**
 * @since 0.1.0
 * @category models
 */
export type SourceLocation = typeof SourceLocation.Type

/**
 * @since 0.1.0
 * @category models
 */
export class QueryInsightV2 extends Schema.Class<QueryInsightV2>("QueryInsightV2")({
  insight_type: QueryInsightType,
  severity: Severity,
  title: Schema.String,
  description: Schema.String,
  recommendation: Schema.String,
  evidence: Evidence,
  location: Schema.optional(SourceLocation),
  /** Estimated credits saved per execution of the query, when the statistics allow it. */
  potential_savings: Schema.optional(Schema.Finite.pipe(Schema.nonNegative())),
  code_change_available: Schema.Boolean
}) {}

/**
 * A table or column name. The parser cannot read backslashes, backticks or control characters in quoted names.
 * @since 0.1.0
 * @category schemas
 */
export const Identifier = Schema.String.pipe(
  Schema.minLength(1),
  Schema.maxLength(256),
  Schema.pattern(/^[^\\`\u0000-\u001f\u007f]+$/, {
    message: () => "must not contain backslashes, backticks or control characters"
  })
)

/**
 * Columns per table, keyed by the table's name as the query writes it (or its bare name).
 * @since 0.1.0
 * @category schemas
 */
export const TableColumns = Schema.Record({ key: Identifier, value: Schema.NonEmptyArray(Identifier) })
/**
 * @since 0.1.0
 * @category models
 */
export type TableColumns = typeof TableColumns.Type

/**
 * @since 0.1.0
 * @category schemas
 */
export const CodeChangeContext = Schema.Struct({
  tables: Schema.optional(TableColumns)
}).annotations({ identifier: "CodeChangeContext" })
/**
 * @since 0.1.0
 * @category models
 */
export type CodeChangeContext = typeof CodeChangeContext.Type

/**
 * @since 0.1.0
 * @category models
 */
export class CodeChangeRequest extends Schema.Class<CodeChangeRequest>("CodeChangeRequest")({
  query_text: QueryText,
  insight_type: QueryInsightType,
  dialect: Schema.optionalWith(Dialect, { default: () => "snowflake" as const }),
  context: Schema.optional(CodeChangeContext)
}) {}

/**
 * @since 0.1.0
 * @category schemas
 */
export const GeneratedBy = Schema.Struct({ provider: Schema.String, model: Schema.String })
/**
 * @since 0.1.0
 * @category models
 */
export type GeneratedBy = typeof GeneratedBy.Type

/**
 * @since 0.1.0
 * @category models
 */
export class CodeChange extends Schema.Class<CodeChange>("CodeChange")({
  original_query: Schema.String,
  suggested_query: Schema.String,
  /** Unified diff from the original to the suggested query. */
  diff: Schema.String,
  explanation: Schema.String,
  insight_type: QueryInsightType,
  generated_by: GeneratedBy,
  review_required: Schema.Literal(true),
  warnings: Schema.Array(Schema.String)
}) {}
