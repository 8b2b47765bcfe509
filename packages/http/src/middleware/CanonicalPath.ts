/**
 * One path per route: a request whose path is not the exact spelling of some route (letter case,
 * `//`, a trailing `/`, `;…`, a percent-encoded literal) is a 404 before the router, which would
 * otherwise take it for the route. Proxy rules written for a path then hold for the API too.
 */
import type { HttpServerRequest } from "@effect/platform"
import { RouteNotFound } from "@effect/platform/HttpServerError"
import { Effect } from "effect"
import * as RouteTable from "../routing/RouteTable.js"

/** The refusal of a request whose path is not a route's spelling; undefined for one that is. */
export const refusal = (
  routes: RouteTable.RouteTable,
  request: HttpServerRequest.HttpServerRequest
): Effect.Effect<never, RouteNotFound> | undefined =>
  RouteTable.isKnownPath(routes, request.url) ? undefined : Effect.fail(new RouteNotFound({ request }))
