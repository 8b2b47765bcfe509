/**
 * v1 validation items always carry `input` (FastAPI's shape; spec Errors 4). Issues found by
 * decoding know the value they rejected; those raised by core's rules (`ValidationFailed`: an
 * empty name, an unknown dimension, a scope id that names nothing) name only a field. This module
 * looks the value up in the request at that field — for a missing field, the object that lacks
 * it — and passes it through `Echo.safeIssue` like every echoed value. What cannot be found (a
 * field inside a JSON string, a header) is `null`. Runs only for rejected v1 requests.
 */
import type { HttpServerRequest } from "@effect/platform"
import { Effect, Option } from "effect"
import * as RouteTable from "../routing/RouteTable.js"
import { readJsonBody } from "./DecodeFailure.js"
import * as Echo from "./Echo.js"
import type { HttpFailure, RequestIssue } from "./Problem.js"

const valueAt = (root: unknown, path: ReadonlyArray<PropertyKey>): unknown =>
  path.reduce<unknown>(
    (value, key) =>
      typeof value === "object" && value !== null && Object.hasOwn(value, key) ? (value as any)[key] : undefined,
    root
  )

/** The value a query parameter was given: its text, or every text when it repeats. */
const queryValue = (url: string, name: PropertyKey): unknown => {
  const values = new URL(url, "http://localhost").searchParams.getAll(String(name))
  return values.length === 0 ? undefined : values.length === 1 ? values[0] : values
}

interface Received {
  readonly body: unknown
  readonly request: HttpServerRequest.HttpServerRequest
  readonly routes: RouteTable.RouteTable
}

const received = (issue: RequestIssue, { body, request, routes }: Received): unknown => {
  // A missing field's input is the object that should have held it.
  const path = issue.issue === "missing" ? issue.path.slice(0, -1) : issue.path
  switch (issue.location) {
    case "body":
      return valueAt(body, path)
    case "query":
      return path.length === 0 ? undefined : valueAt(queryValue(request.url, path[0]!), path.slice(1))
    case "path":
      return Option.match(RouteTable.match(routes, request.method, request.url), {
        onNone: () => undefined,
        onSome: ({ params }) => path.length === 0 ? params : valueAt(params[String(path[0])], path.slice(1))
      })
    case "header":
      // Never echoed: headers carry credentials.
      return undefined
  }
}

/** The failure with an `input` on every issue. */
export const withInputs = (
  failure: HttpFailure,
  request: HttpServerRequest.HttpServerRequest,
  routes: RouteTable.RouteTable
): Effect.Effect<HttpFailure> => {
  const lacking = failure.issues.filter((issue) => !("input" in issue))
  if (lacking.length === 0) return Effect.succeed(failure)
  const needsBody = lacking.some((issue) => issue.location === "body")
  const body = needsBody ? Effect.orElseSucceed(readJsonBody(request), () => undefined) : Effect.succeed(undefined)
  return Effect.map(body, (body) => ({
    ...failure,
    issues: failure.issues.map((issue) =>
      "input" in issue ? issue : Echo.safeIssue({ ...issue, input: received(issue, { body, request, routes }) ?? null })
    )
  }))
}
