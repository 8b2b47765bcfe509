/**
 * `If-Match` of v2 changes, parsed here at the edge into core's `Precondition`: `required` where
 * the resource demands it (428 without), `optional` elsewhere. A malformed header is a 422 on
 * `header.if-match`. v1 routes send none and pass `Precondition.none`.
 */
import { Precondition } from "@costline/core"
import { Schema } from "effect"

export const IfMatchHeaders = Schema.Struct({ "if-match": Schema.optional(Schema.String) })

type IfMatchHeaders = typeof IfMatchHeaders.Type

export const optional = (headers: IfMatchHeaders) => Precondition.optional(headers["if-match"])

/** `what` names the resource in the 428's message: "the insight". */
export const required = (headers: IfMatchHeaders, what: string) => Precondition.required(headers["if-match"], what)
