/**
 * The insights `costline seed` adds: one of each kind a warehouse typically shows, with the
 * figures a detector would report. Fixed content, so seeding again changes nothing.
 */
import { Insight } from "@costline/core"

const DW_ID = "demo-dw"
const CONNECTION_ID = "demo-snowflake"

export const demoInsights: ReadonlyArray<Insight.InsightUpsert> = [
  new Insight.InsightUpsert({
    insight_type: "warehouse_idle",
    resource_type: "warehouse",
    resource_id: "REPORTING_WH",
    title: "REPORTING_WH stays up 40 minutes after its last query",
    description: "Auto-suspend is 3,600 seconds. Lowering it to 60 seconds stops paying for idle time.",
    severity: "high",
    dw_id: DW_ID,
    connection_id: CONNECTION_ID,
    potential_savings: 412.5,
    details: { auto_suspend_seconds: 3600, idle_hours_last_30_days: 137.5, warehouse_size: "LARGE" }
  }),
  new Insight.InsightUpsert({
    insight_type: "oversized_warehouse",
    resource_type: "warehouse",
    resource_id: "ETL_WH",
    title: "ETL_WH is larger than its queries need",
    description: "95% of queries finish in under 4 seconds and none spill. A MEDIUM warehouse would do.",
    severity: "medium",
    dw_id: DW_ID,
    connection_id: CONNECTION_ID,
    potential_savings: 288,
    details: { warehouse_size: "XLARGE", suggested_size: "MEDIUM", p95_execution_seconds: 3.7 }
  }),
  new Insight.InsightUpsert({
    insight_type: "query_remote_spill",
    resource_type: "query",
    resource_id: "01b2c3d4-0000-4a1b-0000-00000000a001",
    title: "Daily revenue rollup spills 38 GB to remote storage",
    description: "The sort in the rollup does not fit in memory. Pre-aggregate by day or use a larger warehouse for this job only.",
    severity: "high",
    dw_id: DW_ID,
    connection_id: CONNECTION_ID,
    potential_savings: 96,
    details: { bytes_spilled_remote: 40_802_189_312, query_tag: "dbt:revenue_daily" }
  }),
  new Insight.InsightUpsert({
    insight_type: "select_star",
    resource_type: "query",
    resource_id: "01b2c3d4-0000-4a1b-0000-00000000a002",
    title: "Dashboard query reads every column of ORDERS",
    description: "SELECT * reads 48 columns where the dashboard shows 5. Name the columns it needs.",
    severity: "low",
    dw_id: DW_ID,
    connection_id: CONNECTION_ID,
    potential_savings: 21.75,
    details: { table: "ANALYTICS.PUBLIC.ORDERS", columns_read: 48, columns_used: 5 }
  }),
  new Insight.InsightUpsert({
    insight_type: "repeated_query",
    resource_type: "query",
    resource_id: "01b2c3d4-0000-4a1b-0000-00000000a003",
    title: "The same customer count runs 1,440 times a day",
    description: "A monitoring job recomputes an unchanged result every minute. Cache it or run it hourly.",
    severity: "medium",
    dw_id: DW_ID,
    connection_id: CONNECTION_ID,
    potential_savings: 64,
    details: { executions_per_day: 1440, result_changed_per_day: 24 }
  }),
  new Insight.InsightUpsert({
    insight_type: "queued_warehouse",
    resource_type: "warehouse",
    resource_id: "BI_WH",
    title: "Queries on BI_WH wait 9 seconds in the queue at 9:00",
    description: "Morning dashboards queue behind each other. A multi-cluster maximum of 2 removes the wait.",
    severity: "medium",
    dw_id: DW_ID,
    connection_id: CONNECTION_ID,
    potential_savings: null,
    details: { p95_queued_seconds: 9.2, peak_hour_utc: 9 }
  }),
  new Insight.InsightUpsert({
    insight_type: "unused_table",
    resource_type: "table",
    resource_id: "RAW.LEGACY.EVENTS_2019",
    title: "RAW.LEGACY.EVENTS_2019 has not been read in 180 days",
    description: "1.2 TB kept in storage and time travel. Drop it or move it to an archive.",
    severity: "low",
    is_current: false,
    dw_id: DW_ID,
    connection_id: CONNECTION_ID,
    potential_savings: 27.6,
    details: { bytes: 1_319_413_953_331, last_read_days_ago: 180 }
  })
]
