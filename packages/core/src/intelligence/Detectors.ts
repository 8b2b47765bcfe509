/**
 * The detectors: pure accumulators fed every metered hour and every query (with its allocated
 * credits) of the window, then asked for their findings as insight upserts. Warehouse detectors
 * key insights by warehouse name, query detectors by QUERY_PARAMETERIZED_HASH (QUERY_ID for a
 * query without one), so re-running over the same or a later window updates the same insight.
 *
 * Savings are credits per 30-day month: credits over the window's covered days × 30 / days.
 * Every formula is in docs/cost-intelligence.md, with a worked example.
 */
import type { InsightType, Severity } from "../insights/Domain.js"
import { InsightUpsert } from "../insights/Domain.js"
import { formatBytes } from "../warehouse/Bytes.js"
import { creditsPerHour } from "../warehouse/WarehouseSize.js"
import type { HourState } from "./Allocation.js"
import type { QueryRow } from "./Exports.js"
import type { Thresholds } from "./Settings.js"

/**
 * @since 0.1.0
 * @category constants
 */
export const DAY_MS = 86_400_000

/**
 * `details.origin` of every insight the detectors make: what an ingestion may later retire.
 * @since 0.1.0
 * @category constants
 */
export const ORIGIN = "dw_ingest"

/**
 * The insight types the detectors produce (and only they: an ingestion may retire these).
 * @since 0.1.0
 * @category constants
 */
export const DETECTED_TYPES = [
  "warehouse_idle",
  "oversized_warehouse",
  "queued_warehouse",
  "query_remote_spill",
  "query_local_spill",
  "poor_partition_pruning",
  "repeated_query"
] as const satisfies ReadonlyArray<InsightType>
/**
 * @since 0.1.0
 * @category constants
 */
export const MONTH_DAYS = 30

/**
 * [from, to) in epoch milliseconds.
 * @since 0.1.0
 * @category models
 */
export interface Window {
  readonly from: number
  readonly to: number
}

/** Six decimals: enough for credits, and stable across runs so an unchanged insight keeps its ETag. */
const round = (value: number) => Math.round(value * 1e6) / 1e6
const percent = (fraction: number) => `${Math.round(fraction * 100)}%`
const TEXT_SAMPLE = 500

interface WarehouseStats {
  computeCredits: number
  idleCredits: number
  hours: number
  queries: number
  queryCredits: number
  executionMs: number
  queuedMs: number
  smallQueries: number
  smallCredits: number
  size: string | null
}

interface QueryGroup {
  readonly key: string
  readonly hashed: boolean
  warehouse: string | null
  user: string | null
  text: string | null
  executions: number
  credits: number
  days: Set<number> | null
  firstDay: number
  localSpills: number
  localSpillBytes: number
  localSpillCredits: number
  remoteSpills: number
  remoteSpillBytes: number
  remoteSpillCredits: number
  poorlyPruned: number
  poorlyPrunedCredits: number
  /** Σ credits × (ratio - target) / ratio over the poorly pruned executions. */
  pruningSavings: number
  partitionsScanned: number
  partitionsTotal: number
}

/**
 * @since 0.1.0
 * @category models
 */
export interface Detectors {
  readonly observeHour: (hour: HourState) => void
  readonly observeQuery: (query: QueryRow, credits: number) => void
  readonly findings: () => ReadonlyArray<InsightUpsert>
}

/**
 * @since 0.1.0
 * @category constructors
 */
export const makeDetectors = (window: Window, thresholds: Thresholds): Detectors => {
  const warehouses = new Map<string, WarehouseStats>()
  const groups = new Map<string, QueryGroup>()
  let firstHour = Infinity

  const inWindow = (at: number) => at >= window.from && at < window.to

  const warehouse = (name: string) => {
    let stats = warehouses.get(name)
    if (stats === undefined) {
      stats = {
        computeCredits: 0,
        idleCredits: 0,
        hours: 0,
        queries: 0,
        queryCredits: 0,
        executionMs: 0,
        queuedMs: 0,
        smallQueries: 0,
        smallCredits: 0,
        size: null
      }
      warehouses.set(name, stats)
    }
    return stats
  }

  const group = (query: QueryRow): QueryGroup => {
    const hashed = query.parameterizedHash !== null
    const key = hashed ? query.parameterizedHash! : query.queryId
    let found = groups.get(key)
    if (found === undefined) {
      found = {
        key,
        hashed,
        warehouse: query.warehouse,
        user: query.user,
        text: null,
        executions: 0,
        credits: 0,
        days: null,
        firstDay: Math.floor(query.start / DAY_MS),
        localSpills: 0,
        localSpillBytes: 0,
        localSpillCredits: 0,
        remoteSpills: 0,
        remoteSpillBytes: 0,
        remoteSpillCredits: 0,
        poorlyPruned: 0,
        poorlyPrunedCredits: 0,
        pruningSavings: 0,
        partitionsScanned: 0,
        partitionsTotal: 0
      }
      groups.set(key, found)
    }
    return found
  }

  const observeHour = (hour: HourState) => {
    if (!inWindow(hour.start)) return
    firstHour = Math.min(firstHour, hour.start)
    const stats = warehouse(hour.warehouse)
    stats.computeCredits += hour.compute
    stats.idleCredits += hour.idle
    stats.hours++
  }

  const observeQuery = (query: QueryRow, credits: number) => {
    if (!inWindow(query.start)) return
    if (query.warehouse !== null) {
      const stats = warehouse(query.warehouse)
      stats.queries++
      stats.queryCredits += credits
      stats.executionMs += query.executionMs ?? 0
      stats.queuedMs += query.queuedOverloadMs ?? 0
      if (query.warehouseSize !== null) stats.size = query.warehouseSize
      const small = (query.bytesScanned ?? 0) <= thresholds.small_query_max_bytes &&
        (query.executionMs ?? 0) <= thresholds.small_query_max_ms
      if (small) {
        stats.smallQueries++
        stats.smallCredits += credits
      }
    }
    const local = query.bytesSpilledLocal ?? 0
    const remote = query.bytesSpilledRemote ?? 0
    const remoteSpill = remote > 0 && remote >= thresholds.query_remote_spill_min_bytes
    const localSpill = local > 0 && local >= thresholds.query_local_spill_min_bytes
    const total = query.partitionsTotal ?? 0
    const scanned = query.partitionsScanned ?? 0
    const ratio = total > 0 ? scanned / total : 0
    const poorlyPruned = total > 0 && total >= thresholds.pruning_min_partitions && ratio >= thresholds.pruning_min_scanned_share
    // A query without a parameterized hash can only matter on its own: no group unless it is a finding,
    // so a million one-off queries cost no memory here.
    if (query.parameterizedHash === null && !remoteSpill && !localSpill && !poorlyPruned) return
    const g = group(query)
    g.executions++
    g.credits += credits
    // Days are kept from the second execution on: most hashes run once, and need no set.
    if (g.executions === 2) g.days = new Set([g.firstDay])
    g.days?.add(Math.floor(query.start / DAY_MS))
    if (remoteSpill) {
      g.remoteSpills++
      g.remoteSpillBytes += remote
      g.remoteSpillCredits += credits
    }
    if (localSpill) {
      g.localSpills++
      g.localSpillBytes += local
      g.localSpillCredits += credits
    }
    if (poorlyPruned) {
      g.poorlyPruned++
      g.poorlyPrunedCredits += credits
      g.pruningSavings += ratio > 0 ? credits * Math.max(0, ratio - thresholds.pruning_target_share) / ratio : 0
      g.partitionsScanned += scanned
      g.partitionsTotal += total
    }
    // Text is kept only for groups that may become insights: memory stays bounded by the findings.
    const notable = g.executions === 2 || remoteSpill || localSpill || poorlyPruned
    if (notable && g.text === null && query.queryText !== null) g.text = query.queryText.slice(0, TEXT_SAMPLE)
  }

  const findings = (): ReadonlyArray<InsightUpsert> => {
    const from = Math.max(window.from, firstHour === Infinity ? window.from : firstHour)
    const days = Math.max(1 / 24, (window.to - from) / DAY_MS)
    const perMonth = (credits: number) => round(credits * MONTH_DAYS / days)
    const period = {
      window_start: new Date(from).toISOString(),
      window_end: new Date(window.to).toISOString(),
      window_days: round(days)
    }
    const out: Array<InsightUpsert> = []
    const worth = (savings: number) => savings > 0 && savings >= thresholds.min_monthly_savings

    const insight = (fields: {
      insight_type: InsightUpsert["insight_type"]
      resource_type: string
      resource_id: string
      title: string
      description: string
      severity: Severity
      potential_savings: number | null
      details: Record<string, unknown>
    }) => out.push(InsightUpsert.make({ ...fields, is_current: true, dw_id: null, connection_id: null, details: { ...period, ...fields.details, origin: ORIGIN } }))

    for (const [name, w] of [...warehouses.entries()].sort(([a], [b]) => a.localeCompare(b))) {
      // warehouse_idle
      const idleShare = w.computeCredits > 0 ? w.idleCredits / w.computeCredits : 0
      const idleSavings = perMonth(Math.max(0, w.idleCredits - thresholds.idle_target_share * w.computeCredits))
      if (idleShare >= thresholds.idle_min_share && worth(idleSavings)) {
        insight({
          insight_type: "warehouse_idle",
          resource_type: "warehouse",
          resource_id: name,
          title: `Warehouse ${name} is idle for ${percent(idleShare)} of the credits it uses`,
          description: `${name} used ${round(w.computeCredits)} compute credits over ${round(days)} days, ` +
            `${round(w.idleCredits)} of them while no query was running. A shorter AUTO_SUSPEND keeps idle near ` +
            `${percent(thresholds.idle_target_share)}.`,
          severity: idleShare >= 0.6 ? "high" : idleShare >= 0.45 ? "medium" : "low",
          potential_savings: idleSavings,
          details: {
            compute_credits: round(w.computeCredits),
            idle_credits: round(w.idleCredits),
            idle_share: round(idleShare),
            metered_hours: w.hours,
            target_idle_share: thresholds.idle_target_share
          }
        })
      }
      // oversized_warehouse
      const rate = w.size === null ? undefined : creditsPerHour(w.size)
      const smallShare = w.queryCredits > 0 ? w.smallCredits / w.queryCredits : 0
      if (
        rate !== undefined && rate >= thresholds.oversized_min_credits_per_hour && w.queries >= thresholds.min_queries &&
        smallShare >= thresholds.oversized_min_small_share
      ) {
        const savings = perMonth(w.smallCredits * Math.max(0, 1 - thresholds.oversized_suggested_credits_per_hour / rate))
        if (worth(savings)) {
          insight({
            insight_type: "oversized_warehouse",
            resource_type: "warehouse",
            resource_id: name,
            title: `Warehouse ${name} (${w.size}) runs mostly small queries`,
            description: `${percent(smallShare)} of the query credits of ${name} went to queries scanning at most ` +
              `${formatBytes(thresholds.small_query_max_bytes)} in at most ${thresholds.small_query_max_ms / 1000} s, ` +
              `which a warehouse of ${thresholds.oversized_suggested_credits_per_hour} credits/hour runs about as fast.`,
            severity: rate >= 32 ? "high" : "medium",
            potential_savings: savings,
            details: {
              warehouse_size: w.size,
              credits_per_hour: rate,
              suggested_credits_per_hour: thresholds.oversized_suggested_credits_per_hour,
              queries: w.queries,
              small_queries: w.smallQueries,
              query_credits: round(w.queryCredits),
              small_query_credits: round(w.smallCredits),
              small_credit_share: round(smallShare)
            }
          })
        }
      }
      // queued_warehouse: a latency problem; its fix (more clusters) costs credits, so no savings.
      const queuedShare = w.queuedMs + w.executionMs > 0 ? w.queuedMs / (w.queuedMs + w.executionMs) : 0
      if (w.queries >= thresholds.min_queries && queuedShare >= thresholds.queued_min_share && w.queuedMs >= thresholds.queued_min_ms) {
        insight({
          insight_type: "queued_warehouse",
          resource_type: "warehouse",
          resource_id: name,
          title: `Queries wait for warehouse ${name}`,
          description: `Queries on ${name} spent ${percent(queuedShare)} of their time queued because the warehouse was ` +
            "overloaded. Raise MAX_CLUSTER_COUNT or move workloads to another warehouse.",
          severity: queuedShare >= 0.5 ? "high" : "medium",
          potential_savings: null,
          details: {
            queries: w.queries,
            queued_overload_ms: round(w.queuedMs),
            execution_ms: round(w.executionMs),
            queued_share: round(queuedShare)
          }
        })
      }
    }

    for (const g of [...groups.values()].sort((a, b) => a.key.localeCompare(b.key))) {
      const resource = g.hashed
        ? { resource_type: "query_hash", resource_id: g.key }
        : { resource_type: "query", resource_id: g.key }
      const about = { warehouse_name: g.warehouse, user_name: g.user, query_text: g.text, executions: g.executions }
      const spills = [
        {
          type: "query_remote_spill" as const,
          count: g.remoteSpills,
          bytes: g.remoteSpillBytes,
          credits: g.remoteSpillCredits,
          share: thresholds.remote_spill_savings_share,
          where: "remote storage",
          severity: "high" as const
        },
        {
          type: "query_local_spill" as const,
          count: g.localSpills,
          bytes: g.localSpillBytes,
          credits: g.localSpillCredits,
          share: thresholds.local_spill_savings_share,
          where: "local disk",
          severity: "medium" as const
        }
      ]
      for (const spill of spills) {
        const savings = perMonth(spill.credits * spill.share)
        if (spill.count === 0 || !worth(savings)) continue
        insight({
          insight_type: spill.type,
          ...resource,
          title: `Query spills to ${spill.where}`,
          description: `${spill.count} execution${spill.count === 1 ? "" : "s"} spilled ${formatBytes(spill.bytes)} to ` +
            `${spill.where}; filter and aggregate before joining, or run on a larger warehouse.`,
          severity: spill.severity,
          potential_savings: savings,
          details: {
            ...about,
            spilling_executions: spill.count,
            bytes_spilled: spill.bytes,
            spilling_credits: round(spill.credits),
            savings_share: spill.share
          }
        })
      }
      const pruningSavings = perMonth(g.pruningSavings)
      if (g.poorlyPruned > 0 && worth(pruningSavings)) {
        const ratio = g.partitionsTotal > 0 ? g.partitionsScanned / g.partitionsTotal : 0
        insight({
          insight_type: "poor_partition_pruning",
          ...resource,
          title: "Query reads most partitions of its tables",
          description: `${g.poorlyPruned} execution${g.poorlyPruned === 1 ? "" : "s"} scanned ${percent(ratio)} of the ` +
            "partitions; filter on the clustering key or cluster the table by the filtered column.",
          severity: ratio >= 0.95 ? "high" : "medium",
          potential_savings: pruningSavings,
          details: {
            ...about,
            poorly_pruned_executions: g.poorlyPruned,
            partitions_scanned: g.partitionsScanned,
            partitions_total: g.partitionsTotal,
            scanned_share: round(ratio),
            target_scanned_share: thresholds.pruning_target_share,
            credits: round(g.poorlyPrunedCredits)
          }
        })
      }
      const activeDays = g.days?.size ?? 1
      const repeatedSavings = perMonth(g.credits * Math.max(0, 1 - activeDays / g.executions))
      if (g.hashed && g.executions >= thresholds.repeated_min_executions && worth(repeatedSavings)) {
        insight({
          insight_type: "repeated_query",
          ...resource,
          title: `Query ran ${g.executions} times in ${round(days)} days`,
          description: `The same parameterized query ran ${g.executions} times on ${activeDays} days. Computing it once a ` +
            "day into a table (or a materialized view) and reading that would save the other executions.",
          severity: g.executions >= 10 * thresholds.repeated_min_executions ? "high" : "medium",
          potential_savings: repeatedSavings,
          details: { ...about, active_days: activeDays, credits: round(g.credits) }
        })
      }
    }
    return out
  }

  return { observeHour, observeQuery, findings }
}
