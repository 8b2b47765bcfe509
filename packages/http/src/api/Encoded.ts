/**
 * The JSON of the hottest responses (audit pages, insights), built directly rather than by
 * `Schema.encode` of the endpoint's declared schema: the generic encoder walked every field of
 * every record (~5 µs per audit record, a quarter of a 500-record page). The declared schemas
 * stay the contract and the OpenAPI documents; `test/unit/Encoded.test.ts` proves each function
 * here equal to `Schema.encode` of its schema for arbitrary values.
 */
import type { HttpServerResponse } from "@effect/platform"
import type { Audit, Insight } from "@costline/core"
import { DateTime } from "effect"
import type { AuditRecordV2 } from "./audit/Api.js"
import * as JsonBody from "./JsonBody.js"

const isoOrNull = (value: DateTime.Utc | null): string | null => (value === null ? null : DateTime.formatIso(value))

/** As exported: without `organization_id`, the caller's own tenant. */
export const auditRecord = ({ organization_id: _tenant, ...record }: Audit.AuditRecord): typeof AuditRecordV2.Encoded => ({
  ...record,
  changed_at: DateTime.formatIso(record.changed_at)
})

export const insight = (value: Insight.Insight): typeof Insight.Insight.Encoded => ({
  ...value,
  create_time: DateTime.formatIso(value.create_time),
  update_time: DateTime.formatIso(value.update_time),
  first_viewed_at: isoOrNull(value.first_viewed_at),
  last_viewed_at: isoOrNull(value.last_viewed_at)
})

/** A 200 answer with an encoded body: the platform does not encode it again. */
export const ok = (body: unknown): HttpServerResponse.HttpServerResponse => JsonBody.unsafeJson(body)
