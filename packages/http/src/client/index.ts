/**
 * @costline/http/client: the typed client of the API and the exactly-once audit-log poller.
 *
 *     const client = yield* Client.make({ baseUrl, token, tenant })
 *     const page = yield* client.audit.exportAuditLogs({ urlParams: { max_results: 100, sort_order: "asc" } })
 *
 * Needs an `HttpClient` (e.g. `FetchHttpClient.layer` from @effect/platform).
 */
export { AuditRecordV2 as AuditRecord } from "../api/audit/Api.js"
export { ApiProblem, ProblemField } from "./ApiProblem.js"
export * as AuditPoller from "./AuditPoller.js"
export { CorruptStateFile } from "./AuditPoller.js"
export { type Client, type ClientOptions, make } from "./Client.js"
