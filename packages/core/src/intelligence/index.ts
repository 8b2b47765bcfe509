/** Cost intelligence: per-query cost, idle cost and insights from the warehouse's account-usage exports. */
export * from "./Repo.js"
export {
  DwIngest,
  type ExportSource,
  IDLE_TAGS,
  type IngestOptions,
  type IngestProgress,
  type IngestSources,
  type IngestSummary
} from "./DwIngest.js"
/** How many usage records an ingestion writes at once (store tests check the batches). */
export { BATCH_SIZE as DW_INGEST_BATCH_SIZE } from "./DwIngest.js"
/** The ingestion's constructor and layer, for stores that test it over their own repositories. */
export * as DwIngestService from "./DwIngest.js"
export * as DwAllocation from "./Allocation.js"
export * as DwDetectors from "./Detectors.js"
export * as DwExports from "./Exports.js"
export * as DwExportFile from "./ExportFile.js"
export * as CostIntelligenceSettings from "./Settings.js"
export * as DwExportGenerator from "./ExportGenerator.js"
