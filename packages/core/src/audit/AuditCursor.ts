/**
 * Audit page tokens: the shared page-token format (`shared/PageToken.ts`) bound to the tenant and
 * the sort order. The position inside is the store's own ordering key (SQLite: a sequence;
 * Postgres: the commit-time stamp, `xid:seq` in tokens issued before it), never a timestamp: many
 * records share one `changed_at`.
 */
import { Either } from "effect"
import * as PageToken from "../shared/PageToken.js"
import type { SortOrder } from "./Domain.js"

export interface CursorPayload {
  readonly tenant: string
  readonly order: SortOrder
  readonly position: string
}

export type CursorError = "malformed" | "bad_signature" | "other_tenant" | "other_order"

const isOrder = (binding: string): binding is SortOrder => binding === "asc" || binding === "desc"

export const encode = (secret: string, payload: CursorPayload): string =>
  PageToken.encode(secret, { tenant: payload.tenant, binding: payload.order, position: payload.position })

/** Decodes and verifies a token; it must have been issued for this tenant and order. */
export const decode = (
  secret: string,
  token: string,
  expected: { readonly tenant: string; readonly order: SortOrder }
): Either.Either<CursorPayload, CursorError> =>
  Either.flatMap(PageToken.open(secret, token), ({ binding, position, tenant }): Either.Either<CursorPayload, CursorError> => {
    // A token of another list is no audit token at all.
    if (!isOrder(binding)) return Either.left("malformed")
    if (tenant !== expected.tenant) return Either.left("other_tenant")
    if (binding !== expected.order) return Either.left("other_order")
    return Either.right({ tenant, order: binding, position })
  })

export const describe = (error: CursorError): string =>
  error === "other_order" ? "page_token was issued for the other sort_order" : PageToken.describe(error)
