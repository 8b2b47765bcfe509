/**
 * `audit_export`: GET /v2/audit-logs?max_results=500, the first page, at every connection count.
 * `audit_export_deep`: the same page 90% of the way through the log (a page token issued for
 * that position), at one connection: its p50 against `audit_export`'s at one connection is the
 * depth figure (target: within 1.3×), since a keyset page should cost the same at any depth.
 */
import type { Scenario } from "../lib/Scenario.js"

const PAGE = 500
const PATH = `/v2/audit-logs?max_results=${PAGE}`

export const auditExport: Scenario = {
  name: "audit_export",
  unit: "records/s",
  unitsPerRequest: PAGE,
  requests: ({ headers }) => () => ({ method: "GET", path: PATH, headers })
}

export const auditExportDeep: Scenario = {
  name: "audit_export_deep",
  unit: "records/s",
  unitsPerRequest: PAGE,
  connections: [1],
  requests: ({ headers, seeded }) => {
    const path = `${PATH}&page_token=${encodeURIComponent(seeded.deepAuditToken)}`
    return () => ({ method: "GET", path, headers })
  }
}
