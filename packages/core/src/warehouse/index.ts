/**
 * Warehouse knowledge that is pure data: size scale, shared thresholds, byte formatting. Core's
 * detectors use it, and so do @costline/analysis's rules.
 */
export * as WarehouseThresholds from "./Thresholds.js"
export { creditsPerHour } from "./WarehouseSize.js"
export { formatBytes } from "./Bytes.js"
