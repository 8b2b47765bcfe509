/**
 * The platform reports a request that does not match its endpoint's schemas as one
 * `HttpApiDecodeError`, without saying whether the path, the body, a header or the query was at
 * fault. This module finds out by decoding the parts again in the platform's own order (path,
 * payload, headers, query string; it stops at the first failure), so every issue carries its
 * location and the value received. Runs only for rejected requests.
 */
import { HttpMethod, HttpServerRequest } from "@effect/platform"
import type { RequestError } from "@effect/platform/HttpServerError"
import { Effect, Either, Option, ParseResult, type Schema } from "effect"
import type { Match } from "../routing/RouteTable.js"
import { normalizeQuery } from "../routing/UrlParams.js"
import * as Echo from "./Echo.js"
import { fieldIssues } from "./ParseIssues.js"
import type { Location, RequestIssue } from "./Problem.js"
import { MalformedBody } from "./RequestErrors.js"

export const missingBody: RequestIssue = {
  location: "body",
  path: [],
  issue: "missing",
  message: "a JSON request body is required",
  input: null
}

const decodeAll = (schema: Schema.Schema.Any, input: unknown) =>
  ParseResult.decodeUnknownEither(schema as Schema.Schema<unknown>, { errors: "all" })(input)

/**
 * Values received in headers are never echoed (they carry credentials); nor is the container of
 * a missing query or path field, which is not something the client wrote. What is echoed passes
 * through `Echo.safeIssue`: no secret, nothing oversized.
 */
const locateIssues = (location: Location, issue: ParseResult.ParseIssue): ReadonlyArray<RequestIssue> =>
  fieldIssues(issue).map((decoded) =>
    Echo.safeIssue({
      ...decoded,
      location,
      input: location === "header" || (decoded.issue === "missing" && location !== "body") ? null : decoded.input
    })
  )

const check = (
  location: Location,
  schema: Option.Option<Schema.Schema.Any>,
  input: (schema: Schema.Schema.Any) => unknown
): ReadonlyArray<RequestIssue> | undefined => {
  if (Option.isNone(schema)) return undefined
  const result = decodeAll(schema.value, input(schema.value))
  return Either.isLeft(result) ? locateIssues(location, result.left) : undefined
}

/** The request body, parsed; `undefined` when it is empty. The text is cached by the request. */
export const readJsonBody = (
  request: HttpServerRequest.HttpServerRequest
): Effect.Effect<unknown, MalformedBody | RequestError> =>
  Effect.flatMap(request.text, (text) => {
    if (text.trim().length === 0) return Effect.succeed(undefined)
    return Effect.try({ try: () => JSON.parse(text) as unknown, catch: () => new MalformedBody() })
  })

/**
 * The issues of the first request part that fails its schema, or none when every part decodes
 * (then the platform's error came from encoding the response: a server fault).
 */
export const locate = (
  match: Match,
  request: HttpServerRequest.HttpServerRequest
): Effect.Effect<Option.Option<ReadonlyArray<RequestIssue>>, MalformedBody | RequestError> =>
  Effect.gen(function*() {
    const { endpoint } = match.route
    const query = HttpServerRequest.searchParamsFromURL(new URL(request.url, "http://localhost"))
    const path = check("path", endpoint.pathSchema, () => match.params)
    if (path) return Option.some(path)
    if (HttpMethod.hasBody(endpoint.method) && Option.isSome(endpoint.payloadSchema)) {
      const body = yield* readJsonBody(request)
      if (body === undefined) return Option.some([missingBody])
      const payload = check("body", endpoint.payloadSchema, () => body)
      if (payload) return Option.some(payload)
    } else {
      const payload = check("query", endpoint.payloadSchema, () => query)
      if (payload) return Option.some(payload)
    }
    const headers = check("header", endpoint.headersSchema, () => request.headers)
    if (headers) return Option.some(headers)
    const urlParams = check("query", endpoint.urlParamsSchema, (schema) => normalizeQuery(query, schema.ast))
    return urlParams ? Option.some(urlParams) : Option.none()
  })
