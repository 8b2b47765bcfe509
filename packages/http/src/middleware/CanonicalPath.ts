/**
 * One path per route: a request whose path is not the exact spelling of some route (letter case,
 * `//`, a trailing `/`, `;…`, a percent-encoded literal) is a 404 before the router, which would
 * otherwise take it for the route. Proxy rules written for a path then hold for the API too.
 */
import type { HttpApp } from "@effect/platform"
import { RouteNotFound } from "@effect/platform/HttpServerError"
import { Effect } from "effect"
import * as RequestFiber from "../routing/RequestFiber.js"
import * as RouteTable from "../routing/RouteTable.js"

export const make = (routes: RouteTable.RouteTable) => <E, R>(app: HttpApp.Default<E, R>) =>
  RequestFiber.withRequest((request): HttpApp.Default<E | RouteNotFound, R> =>
    RouteTable.isKnownPath(routes, request.url) ? app : Effect.fail(new RouteNotFound({ request }))
  )
