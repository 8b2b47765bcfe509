/**
 * `POST /v2/dw-ingestions` (extension): the warehouse's account-usage exports, each as the text
 * of its CSV or JSON Lines file inside one JSON body, ingested all or nothing (see core's
 * DwIngest). Admin-only: it writes usage for every usage group and insights for everyone, so it
 * needs `dw_accounts` write access, which editors lack. Its body limit is raised by
 * `maxIngestBodyBytes`, not the API-wide one.
 */
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { UsageFile } from "@costline/core"
import { Schema } from "effect"
import { Access } from "../Access.js"
import { Requires } from "../Access.js"
import { Declared } from "../Errors.js"
import { v2 } from "../Versions.js"

export const INGEST_PATH = "/dw-ingestions"

const ExportFile = Schema.Struct({
  format: UsageFile.UsageFileFormat,
  /** The file's text: CSV with a header row, or one JSON object per line. */
  content: Schema.String
}).annotations({ identifier: "DwExportFile" })

export const DwIngestionRequest = Schema.Struct({
  metering: ExportFile.annotations({ description: "WAREHOUSE_METERING_HISTORY" }),
  queries: ExportFile.annotations({ description: "QUERY_HISTORY" }),
  attribution: Schema.optional(ExportFile.annotations({ description: "QUERY_ATTRIBUTION_HISTORY; wins over the computed allocation" })),
  window_days: Schema.optional(Schema.Number.pipe(Schema.positive(), Schema.finite()))
}).annotations({ identifier: "DwIngestionRequest", parseOptions: { onExcessProperty: "error" } })

export const DwIngestionSummary = Schema.Struct({
  metering_rows: Schema.Number,
  hours: Schema.Number,
  queries: Schema.Number,
  duplicate_queries: Schema.Number,
  unmetered_queries: Schema.Number,
  compute_credits: Schema.Number,
  query_credits: Schema.Number,
  idle_credits: Schema.Number,
  idle_share: Schema.Number,
  usage_records: Schema.Number,
  window_start: Schema.String,
  window_end: Schema.String,
  insights_created: Schema.Number,
  insights_updated: Schema.Number,
  insights_unchanged: Schema.Number,
  /** Earlier findings over the same warehouses that this input no longer shows: now `is_current: false`. */
  insights_retired: Schema.Number
}).annotations({ identifier: "DwIngestionSummary" })

/** How the docs page and the documents name and describe this group. */
const tag = OpenApi.annotations({
  title: "Warehouse ingestion",
  description: "Ingest the warehouse's account-usage exports (metering, query history, attribution): " +
    "per-query cost, idle time and new insights."
})

export class IntelligenceApi extends v2(
  HttpApiGroup.make("intelligence").annotateContext(tag).add(
    HttpApiEndpoint.post("ingestDw", INGEST_PATH)
      .annotate(Requires, Access.write("dw_accounts", {
        target: { event_type: "organization" },
        table_name: "dw_ingestions",
        operation: "update"
      }))
      .setPayload(DwIngestionRequest)
      .addSuccess(DwIngestionSummary)
      // Another ingestion of the organization is still being staged.
      .addError(Declared.Conflict)
  )
) {}
