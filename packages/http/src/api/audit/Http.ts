/** Handler of `GET /v2/audit-logs`: admin only, never cached. */
import { HttpApiBuilder } from "@effect/platform"
import { AuditLog, Authorization, Permissions } from "@costline/core"
import { Effect } from "effect"
import { CostlineApi } from "../Api.js"
import { Caller } from "../Caller.js"
import * as Respond from "../Respond.js"
import { toExportQuery } from "./Params.js"

export const AuditHttpLive = HttpApiBuilder.group(CostlineApi, "audit", (handlers) =>
  Effect.gen(function*() {
    const auditLog = yield* AuditLog
    const authorization = yield* Authorization
    return handlers.handle("exportAuditLogs", ({ urlParams }) =>
      Effect.gen(function*() {
        const caller = yield* Caller
        yield* authorization.require(caller.principal, Permissions.exportAudit)
        yield* Respond.noStore
        const page = yield* auditLog.export(caller.organizationId, toExportQuery(urlParams))
        return { items: page.items, page_token: page.page_token, row_count: page.items.length }
      }))
  }))
