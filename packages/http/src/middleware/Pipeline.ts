/**
 * The API-wide middleware (`HttpApiBuilder.middleware`). It wraps the router before the platform
 * encodes errors, so it sees every failure raw and renders each one itself, in the caller's API
 * version: v2 problem+json, v1 FastAPI `detail`. It also assigns the request id, enforces body
 * limits and the read timeout, answers CORS and the edge routes (documents, docs page, probes),
 * adds the v1 deprecation and v2 rate-limit headers, and writes the access log.
 */
import { FileSystem, type HttpApi, HttpIncomingMessage, HttpServerRequest, HttpServerResponse } from "@effect/platform"
import type { HttpApp } from "@effect/platform"
import type { Gcra } from "@costline/core"
import { Cause, type Duration, Effect, FiberRef, identity, Option } from "effect"
import { type ApiVersion, versionOf } from "../api/Versions.js"
import { describe } from "../errors/Describe.js"
import * as FastApiDetail from "../errors/FastApiDetail.js"
import * as IssueInputs from "../errors/IssueInputs.js"
import type { HttpFailure } from "../errors/Problem.js"
import * as ProblemJson from "../errors/ProblemJson.js"
import * as JsonLines from "../logging/JsonLines.js"
import type { Metrics } from "../observability/Metrics.js"
import * as RequestFiber from "../routing/RequestFiber.js"
import * as RouteTable from "../routing/RouteTable.js"
import * as AccessLog from "./AccessLog.js"
import * as BodyLimits from "./BodyLimits.js"
import * as CanonicalPath from "./CanonicalPath.js"
import * as Cors from "./Cors.js"
import * as Deprecation from "./Deprecation.js"
import * as EdgeRoutes from "./EdgeRoutes.js"
import * as RateLimit from "./RateLimit.js"
import * as ReadTimeout from "./ReadTimeout.js"
import * as RequestId from "./RequestId.js"
import * as StorableInput from "./StorableInput.js"
import * as UnroutedRateLimit from "./UnroutedRateLimit.js"
import * as UnannouncedBody from "./UnannouncedBody.js"

export interface PipelineOptions {
  readonly maxBodyBytes: number
  readonly maxIngestBodyBytes: number
  readonly accessLog: boolean
  readonly deprecation: Deprecation.DeprecationPolicy
  /** The policy in force; undefined when rate limiting is off. */
  readonly rateLimit: Gcra.RateLimitPolicy | undefined
  readonly readTimeout: Duration.DurationInput
  readonly cors: Cors.CorsOptions | undefined
  /** Counted per request when set; `exposeMetrics` also serves them at `/metrics`. */
  readonly metrics?: Metrics | undefined
  readonly exposeMetrics?: boolean | undefined
  /** Server spans carry the route template and the request id. */
  readonly tracing?: boolean | undefined
}

const render = (version: ApiVersion, failure: HttpFailure, requestId: string) =>
  version === "v1" ? FastApiDetail.render(failure) : ProblemJson.render(failure, requestId)

export const make = (api: HttpApi.HttpApi.Any, options: PipelineOptions) =>
  Effect.map(Effect.all([
    EdgeRoutes.make(api, options),
    UnroutedRateLimit.make(options.rateLimit !== undefined)
  ]), ([edgeRoutes, unrouted]) => {
    const routes = RouteTable.forApi(api)
    const canonical = CanonicalPath.make(routes)
    const storable = StorableInput.make(routes)
    const cors = Cors.make(options.cors, routes)
    const readTimeout = ReadTimeout.make(options.readTimeout)
    /**
     * The app behind the request-wide rules, composed once (not per request). A request without
     * a body skips the wrappers that only read bodies (read timeout, nesting): they would pass it on.
     */
    const edges = (app: HttpApp.Default) => ({
      withBody: cors(edgeRoutes(canonical(readTimeout(BodyLimits.nestingLimit(storable(app)))))),
      bodyless: cors(edgeRoutes(canonical(storable(app))))
    })

    const respond = (
      app: ReturnType<typeof edges>,
      request: HttpServerRequest.HttpServerRequest,
      requestId: string,
      facts: RequestFiber.Facts,
      route: () => Option.Option<RouteTable.Match>,
      fiber: RequestFiber.AnyFiber
    ) => {
      const version = versionOf(request.url)
      const maxBodyBytes = BodyLimits.limitFor(request.url, options)
      const answer = (cause: Cause.Cause<unknown>, readable: HttpServerRequest.HttpServerRequest) =>
        // A client that went away needs no answer; let the server see the interruption.
        Cause.isInterruptedOnly(cause)
          ? Effect.failCause(cause as Cause.Cause<never>)
          : describe(cause, readable, routes, maxBodyBytes).pipe(
            // v1 items echo the value at each field (`input`), also for core's own checks.
            Effect.flatMap((failure) =>
              version === "v1" ? IssueInputs.withInputs(failure, readable, routes) : Effect.succeed(failure)
            ),
            Effect.map((failure) => render(version, failure, requestId))
          )
      // Most requests carry no body: nothing to check or read, and the request is served as it came
      // (no second request in the context, no body limit to set).
      const served = BodyLimits.announcesBody(request)
        ? BodyLimits.check(request, maxBodyBytes).pipe(
          Effect.zipRight(UnannouncedBody.bounded(request, maxBodyBytes, options.readTimeout)),
          // One instance reads the body, so whoever reads it again (error reporting) gets the same text.
          Effect.map(BodyLimits.asPlainJson),
          Effect.matchCauseEffect({
            onFailure: (cause) => answer(cause, request),
            onSuccess: (readable) =>
              Effect.catchAllCause(
                readable === request
                  ? app.withBody
                  : RequestFiber.providing(fiber, HttpServerRequest.HttpServerRequest, readable, app.withBody),
                (cause) => answer(cause, readable)
              )
          }),
          (checked) =>
            RequestFiber.providing(fiber, HttpIncomingMessage.MaxBodySize, Option.some(FileSystem.Size(maxBodyBytes)), checked)
        )
        : Effect.catchAllCause(app.bodyless, (cause) => answer(cause, request))
      return served.pipe(
        Effect.map((response) =>
          HttpServerResponse.setHeaders(response, {
            // What the handler gave its answer (`Respond.setHeaders`), then the pipeline's own.
            ...facts.headers,
            [RequestId.HEADER]: requestId,
            ...(options.rateLimit !== undefined && RateLimit.appliesTo(request.url)
              ? { [RateLimit.POLICY_HEADER]: RateLimit.policyValue(options.rateLimit) }
              : {}),
            ...(version === "v1"
              ? Deprecation.headers(options.deprecation, route())
              : {})
          })
        ),
        // Without a rate limit there is nothing to add to answers that never reached an operation.
        options.rateLimit === undefined ? identity : Effect.flatMap((response) => unrouted(request, response))
      )
    }

    /** Route, duration and status for the access log, the metrics and the trace. */
    const observe = (
      request: HttpServerRequest.HttpServerRequest,
      response: HttpServerResponse.HttpServerResponse,
      requestId: string,
      started: number,
      matched: Option.Option<RouteTable.Match>
    ) =>
      Effect.withFiberRuntime<HttpServerResponse.HttpServerResponse>((fiber) => {
        const durationMs = RequestFiber.currentTimeMillis(fiber) - started
        // The template (`/v2/teams/:team_id`), never the concrete path: ids and emails stay out.
        const route = Option.isSome(matched) ? matched.value.route.path : null
        options.metrics?.request(request.method, route, response.status, durationMs / 1000)
        if (options.accessLog) AccessLog.log(fiber, route, request, response, durationMs)
        return options.tracing
          ? Effect.as(Effect.annotateCurrentSpan({ "http.route": route ?? "", "costline.request_id": requestId }), response)
          : Effect.succeed(response)
      })
    const observed = options.accessLog || options.metrics !== undefined || options.tracing === true

    return (router: HttpApp.Default): HttpApp.Default<never, HttpServerRequest.HttpServerRequest> => {
      const app = edges(router)
      return Effect.withFiberRuntime<HttpServerResponse.HttpServerResponse, never, HttpServerRequest.HttpServerRequest>((fiber) => {
        const started = RequestFiber.currentTimeMillis(fiber)
        const request = RequestFiber.requestOf(fiber)
        const requestId = RequestId.fromHeader(request.headers[RequestId.HEADER])
        // One routing pass per request, shared by the deprecation headers and the access log.
        let matched: Option.Option<RouteTable.Match> | undefined
        const matchedRoute = () => (matched ??= RouteTable.match(routes, request.method, request.url))
        // For the rest of the request's fiber (`RequestFiber`): its id, in its facts and its logs.
        // costline's JSON lines read it from the facts; any other logger gets it as an annotation.
        const [facts, begun] = RequestFiber.begin(fiber, requestId)
        const served = respond(app, request, requestId, facts, matchedRoute, fiber)
        const logged = JsonLines.onlyWriter(fiber.getFiberRef(FiberRef.currentLoggers)) === undefined
          ? Effect.zipRight(begun, RequestFiber.annotateLogs({ [RequestFiber.REQUEST_ID_ANNOTATION]: requestId }))
          : begun
        return logged.pipe(
          Effect.zipRight(
            observed
              ? Effect.flatMap(served, (response) => observe(request, response, requestId, started, matchedRoute()))
              : served
          )
        )
      })
    }
  })
