/**
 * Thresholds that both the one-query analysis rules (@costline/analysis) and the account-wide
 * detectors (`intelligence/`) apply: one home, so a query analysed alone and the same query in an
 * export are judged alike. Thresholds only one rule uses stay with that rule.
 */

// oversized_warehouse
/**
 * From Large (8 credits/hour) a warehouse is worth questioning for small queries.
 * @since 0.1.0
 * @category constants
 */
export const LARGE_WAREHOUSE_CREDITS_PER_HOUR = 8

/**
 * Scans up to a GiB finish in seconds on a Small warehouse.
 * @since 0.1.0
 * @category constants
 */
export const SMALL_WORK_BYTES = 1024 ** 3

/**
 * A minute is the warehouse's minimum billing period; shorter work gains nothing from more nodes.
 * @since 0.1.0
 * @category constants
 */
export const SMALL_WORK_MS = 60_000

// poor_partition_pruning
/**
 * Small tables are cheap to scan whole; pruning matters from about a thousand partitions.
 * @since 0.1.0
 * @category constants
 */
export const MIN_PARTITIONS = 1_000

/**
 * Reading four in five partitions means the filters barely pruned anything.
 * @since 0.1.0
 * @category constants
 */
export const POOR_SCAN_RATIO = 0.8

/**
 * A selective date or partition-key predicate typically leaves about a tenth of a large table.
 * @since 0.1.0
 * @category constants
 */
export const PRUNED_SCAN_RATIO = 0.1

// repeated_query
/**
 * A hundred runs: a hot path worth a materialized view.
 * @since 0.1.0
 * @category constants
 */
export const FREQUENT_OCCURRENCES = 100

// queued_warehouse
/**
 * Waits under ten seconds go unnoticed by people and pipelines alike.
 * @since 0.1.0
 * @category constants
 */
export const MIN_QUEUED_MS = 10_000

/**
 * A wait of a fifth of the total time is a bottleneck, not noise.
 * @since 0.1.0
 * @category constants
 */
export const MIN_QUEUED_SHARE = 0.2

// query_local_spill, query_remote_spill
/**
 * Local SSD spills of a few hundred MiB are routine; from a GiB they slow the query visibly.
 * @since 0.1.0
 * @category constants
 */
export const LOCAL_SPILL_MIN_BYTES = 1024 ** 3

/**
 * Any remote spill goes over the network to object storage: always worth fixing.
 * @since 0.1.0
 * @category constants
 */
export const REMOTE_SPILL_MIN_BYTES = 1
