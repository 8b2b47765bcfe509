/**
 * One structured log entry per request: request id (from the log annotations), method, route
 * template (`/v2/teams/:team_id`, never the concrete path: ids and emails stay out), status, duration and the tenant the caller was authenticated for. Never headers,
 * query strings or bodies, which carry tokens, keys and personal data.
 */
import type { HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { Effect, FiberRef } from "effect"
import * as RequestFiber from "../routing/RequestFiber.js"

/** The organization of the authenticated caller; set by the tenant middlewares. */
export const currentTenant: FiberRef.FiberRef<string | null> = FiberRef.unsafeMake<string | null>(null)

export const recordTenant = (organizationId: string): Effect.Effect<void> => FiberRef.set(currentTenant, organizationId)

export const log = (
  route: string | null,
  request: HttpServerRequest.HttpServerRequest,
  response: HttpServerResponse.HttpServerResponse,
  durationMs: number
): Effect.Effect<void> =>
  Effect.withFiberRuntime((fiber) =>
    // The entry is the last thing the request's fiber logs (`RequestFiber`).
    Effect.zipRight(
      RequestFiber.annotateLogs({
        method: request.method,
        route,
        status: response.status,
        duration_ms: durationMs,
        tenant: fiber.getFiberRef(currentTenant)
      }),
      Effect.logInfo("request served")
    ))
