/**
 * One structured log entry per request: request id (from the log annotations), method, route
 * template, status, duration and the tenant the caller was authenticated for. Never headers,
 * query strings or bodies, which carry tokens, keys and personal data.
 */
import type { HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { Effect, FiberRef, Option } from "effect"
import * as RouteTable from "../routing/RouteTable.js"

/** The organization of the authenticated caller; set by the tenant middlewares. */
export const currentTenant: FiberRef.FiberRef<string | null> = FiberRef.unsafeMake<string | null>(null)

export const recordTenant = (organizationId: string): Effect.Effect<void> => FiberRef.set(currentTenant, organizationId)

export const log = (
  routes: RouteTable.RouteTable,
  request: HttpServerRequest.HttpServerRequest,
  response: HttpServerResponse.HttpServerResponse,
  durationMs: number
): Effect.Effect<void> =>
  Effect.flatMap(FiberRef.get(currentTenant), (tenant) =>
    Effect.logInfo("request served").pipe(Effect.annotateLogs({
      method: request.method,
      // The template (`/v2/teams/:team_id`), never the concrete path: ids and emails stay out.
      route: Option.match(RouteTable.match(routes, request.method, request.url), {
        onNone: () => null,
        onSome: ({ route }) => route.path
      }),
      status: response.status,
      duration_ms: durationMs,
      tenant
    })))
