/**
 * Response headers that endpoints cannot declare (`Location`, `ETag`, `Cache-Control`): added
 * by a pre-response handler, so handlers keep returning plain values the API encodes.
 */
import { HttpApp, HttpServerResponse } from "@effect/platform"
import { Effect } from "effect"

export const setHeaders = (headers: Readonly<Record<string, string>>): Effect.Effect<void> =>
  HttpApp.appendPreResponseHandler((_request, response) => Effect.succeed(HttpServerResponse.setHeaders(response, headers)))

/** For responses that must never be reused: audit exports, credentials. */
export const noStore: Effect.Effect<void> = setHeaders({ "cache-control": "no-store" })
