/**
 * Every request has an id: the caller's `x-request-id` when it is a sane token (so ids can be
 * followed across services), else a fresh UUID. It is echoed in the response header, put in
 * error bodies and stored in the audit records the request writes. The request's own is in its
 * facts (`RequestFiber.factsOf(fiber).requestId`).
 */
import { Effect } from "effect"
import { randomUUID } from "node:crypto"

export const HEADER = "x-request-id"

/** Printable, no spaces or quotes, bounded: safe to log, to echo and to store. */
const SANE = /^[A-Za-z0-9._:@/+=-]{1,128}$/

export const isSane = (id: string): boolean => SANE.test(id)

/** The id of a request that sent `incoming` as its `x-request-id` (a fresh one when it is not sane). */
export const fromHeader = (incoming: string | undefined): string =>
  incoming !== undefined && isSane(incoming) ? incoming : randomUUID()

export const choose = (incoming: string | undefined): Effect.Effect<string> => Effect.sync(() => fromHeader(incoming))
