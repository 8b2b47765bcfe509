/** Handler of `GET /v2/audit-logs`: never cached (admin only, as its endpoint declares). */
import { AuditLog } from "@costline/core"
import { DateTime, Effect, Function, Option } from "effect"
import { ServerMetrics } from "../../observability/Metrics.js"
import { CostlineApi } from "../Api.js"
import { Caller } from "../Caller.js"
import { toPage } from "../Pages.js"
import * as Respond from "../Respond.js"
import { toExportQuery } from "./Params.js"
import * as Group from "../Group.js"

export const AuditHttpLive = Group.group(CostlineApi, "audit", (handlers) =>
  Effect.gen(function*() {
    const auditLog = yield* AuditLog.AuditLog
    const metrics = yield* Effect.serviceOption(ServerMetrics)
    return handlers.handle("exportAuditLogs", ({ urlParams }) =>
      Effect.gen(function*() {
        const caller = yield* Caller
        yield* Respond.noStore
        const page = yield* auditLog.export(caller.organizationId, toExportQuery(urlParams))
        if (Option.isSome(metrics) && urlParams.sort_order === "asc") {
          const newest = page.items.at(-1)
          const now = yield* DateTime.now
          metrics.value.auditExported(newest === undefined ? 0 : DateTime.distance(newest.changed_at, now) / 1000)
        }
        return toPage(page, Function.identity)
      }))
  }))
