/** `GET /v2/audit-logs`: the audit export, polled with an exactly-once page token. */
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { Audit } from "@costline/core"
import { Schema, Struct } from "effect"
import { Access, Requires } from "../Access.js"
import { Declared } from "../Errors.js"
import { pageOf } from "../Pages.js"
import { v2 } from "../Versions.js"
import { AuditLogsParams } from "./Params.js"

/** A record as exported: the tenant is the caller's own, so `organization_id` is left out. */
export const AuditRecordV2 = Schema.Struct(Struct.omit(Audit.AuditRecord.fields, "organization_id")).annotations({
  identifier: "AuditRecord"
})

/** `page_token` points just past the last item; null only when there were no items. */
export const AuditLogPage = pageOf(AuditRecordV2, "AuditLogPage")

/** How the docs page and the documents name and describe this group. */
const tag = OpenApi.annotations({
  title: "Audit logs",
  description: "The organization's audit log for export: every change, sign-in and credential use, " +
    "filtered by time, resource, operation and actor, read page by page."
})

export class AuditApi extends v2(
  HttpApiGroup.make("audit").annotateContext(tag).add(
    HttpApiEndpoint.get("exportAuditLogs", "/audit-logs")
      .annotate(Requires, Access.exportAudit)
      .setUrlParams(AuditLogsParams)
      .addSuccess(AuditLogPage)
      .addError(Declared.InvalidPageToken)
  )
) {}
