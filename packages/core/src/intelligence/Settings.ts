/**
 * The thresholds and savings parameters of the detectors, per organization: the defaults below,
 * overridden key by key by the organization setting `cost_intelligence` (an object), e.g.
 * `costline org settings set --org acme 'cost_intelligence={"idle_min_share":0.4}'`.
 * Defaults are the query analyzer's thresholds (`warehouse/Thresholds.ts`) where the same question is
 * asked of one query.
 */
import { Either, ParseResult, Schema } from "effect"
import {
  FREQUENT_OCCURRENCES,
  LARGE_WAREHOUSE_CREDITS_PER_HOUR,
  LOCAL_SPILL_MIN_BYTES,
  MIN_PARTITIONS,
  MIN_QUEUED_MS,
  MIN_QUEUED_SHARE,
  POOR_SCAN_RATIO,
  PRUNED_SCAN_RATIO,
  REMOTE_SPILL_MIN_BYTES,
  SMALL_WORK_BYTES,
  SMALL_WORK_MS
} from "../warehouse/Thresholds.js"
import { ValidationFailed } from "../shared/Errors.js"

/**
 * The organization setting that holds overrides.
 * @since 0.1.0
 * @category constants
 */
export const SETTINGS_KEY = "cost_intelligence"

const Fraction = Schema.Number.pipe(Schema.between(0, 1))
const NonNegative = Schema.Number.pipe(Schema.finite(), Schema.nonNegative())
const Positive = Schema.Number.pipe(Schema.finite(), Schema.positive())

/**
 * @since 0.1.0
 * @category schemas
 */
export const Thresholds = Schema.Struct({
  /** Days before the end of the input that detectors look at. */
  window_days: Positive,
  /** Below this many credits per month of savings a finding is not worth an insight. */
  min_monthly_savings: NonNegative,

  /** warehouse_idle: idle share of compute credits from which a warehouse is flagged... */
  idle_min_share: Fraction,
  /** ...and the idle share a well-set auto-suspend keeps (savings are the idle above it). */
  idle_target_share: Fraction,

  /** oversized_warehouse: sizes from this many credits per hour... */
  oversized_min_credits_per_hour: Positive,
  /** ...whose queries are mostly small (at most these bytes and milliseconds)... */
  small_query_max_bytes: NonNegative,
  small_query_max_ms: NonNegative,
  /** ...for at least this share of the queries' credits... */
  oversized_min_small_share: Fraction,
  /** ...would cost this many credits per hour instead (Small). */
  oversized_suggested_credits_per_hour: Positive,

  /** queued_warehouse: queued-for-overload share of queued + execution time... */
  queued_min_share: Fraction,
  /** ...and at least this much queueing in the window. */
  queued_min_ms: NonNegative,

  /** Warehouse detectors need this many queries in the window to judge. */
  min_queries: NonNegative,

  query_local_spill_min_bytes: NonNegative,
  query_remote_spill_min_bytes: NonNegative,
  /** Share of a spilling query's credits that fitting in memory would save. */
  local_spill_savings_share: Fraction,
  remote_spill_savings_share: Fraction,

  pruning_min_partitions: NonNegative,
  pruning_min_scanned_share: Fraction,
  /** The share of partitions a well-clustered table lets such a query read. */
  pruning_target_share: Fraction,

  /** repeated_query: executions of one parameterized hash in the window. */
  repeated_min_executions: NonNegative
})
/**
 * @since 0.1.0
 * @category models
 */
export type Thresholds = typeof Thresholds.Type

/**
 * @since 0.1.0
 * @category constants
 */
export const DEFAULT_THRESHOLDS: Thresholds = {
  window_days: 30,
  min_monthly_savings: 1,
  idle_min_share: 0.3,
  idle_target_share: 0.1,
  oversized_min_credits_per_hour: LARGE_WAREHOUSE_CREDITS_PER_HOUR,
  small_query_max_bytes: SMALL_WORK_BYTES,
  small_query_max_ms: SMALL_WORK_MS,
  oversized_min_small_share: 0.8,
  oversized_suggested_credits_per_hour: 2,
  queued_min_share: MIN_QUEUED_SHARE,
  queued_min_ms: MIN_QUEUED_MS,
  min_queries: 20,
  query_local_spill_min_bytes: LOCAL_SPILL_MIN_BYTES,
  query_remote_spill_min_bytes: REMOTE_SPILL_MIN_BYTES,
  local_spill_savings_share: 0.25,
  remote_spill_savings_share: 0.5,
  pruning_min_partitions: MIN_PARTITIONS,
  pruning_min_scanned_share: POOR_SCAN_RATIO,
  pruning_target_share: PRUNED_SCAN_RATIO,
  repeated_min_executions: FREQUENT_OCCURRENCES
}

const Overrides = Schema.partialWith(Thresholds, { exact: true }).annotations({ parseOptions: { onExcessProperty: "error" } })
const decodeOverrides = Schema.decodeUnknownEither(Overrides)

/**
 * The thresholds of an organization, from its settings; a malformed override is a ValidationFailed.
 * @since 0.1.0
 * @category utils
 */
export const thresholdsOf = (settings: Readonly<Record<string, unknown>>): Either.Either<Thresholds, ValidationFailed> => {
  const overrides = settings[SETTINGS_KEY]
  if (overrides === undefined || overrides === null) return Either.right(DEFAULT_THRESHOLDS)
  return Either.match(decodeOverrides(overrides), {
    onLeft: (error) =>
      Either.left(ValidationFailed.single(
        `settings.${SETTINGS_KEY}`,
        "invalid",
        `organization setting ${SETTINGS_KEY}: ${ParseResult.TreeFormatter.formatErrorSync(error)}`
      )),
    onRight: (partial) => Either.right({ ...DEFAULT_THRESHOLDS, ...partial })
  })
}
