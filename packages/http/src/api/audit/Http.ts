/** Handler of `GET /v2/audit-logs`: never cached (admin only, as its endpoint declares). */
import { HttpApiBuilder } from "@effect/platform"
import { AuditLog } from "@costline/core"
import { Effect } from "effect"
import { CostlineApi } from "../Api.js"
import { Caller } from "../Caller.js"
import * as Encoded from "../Encoded.js"
import * as Respond from "../Respond.js"
import { toExportQuery } from "./Params.js"

export const AuditHttpLive = HttpApiBuilder.group(CostlineApi, "audit", (handlers) =>
  Effect.gen(function*() {
    const auditLog = yield* AuditLog
    return handlers.handle("exportAuditLogs", ({ urlParams }) =>
      Effect.gen(function*() {
        const caller = yield* Caller
        yield* Respond.noStore
        const page = yield* auditLog.export(caller.organizationId, toExportQuery(urlParams))
        return Encoded.ok(Encoded.page(Encoded.auditRecord, page.items, page.page_token))
      }))
  }))
