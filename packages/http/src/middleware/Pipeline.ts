/**
 * The API-wide middleware (`HttpApiBuilder.middleware`). It wraps the router before the platform
 * encodes errors, so it sees every failure raw and renders each one itself, in the caller's API
 * version: v2 problem+json, v1 FastAPI `detail`. It also assigns the request id, enforces body
 * limits and the read timeout, answers CORS and the edge routes (documents, docs page, probes),
 * adds the v1 deprecation and v2 rate-limit headers, and writes the access log.
 *
 * Each rule keeps its module; the pipeline asks those that need no effect (CORS, the edge routes,
 * the canonical path, storable text in the URL) in plain code, in the one step that starts the
 * request, and finishes the answer (headers, observation) in one continuation: what only waits
 * or fails (a body's read, an answer's rendering, tracing) is an effect.
 */
import { FileSystem, type HttpApi, HttpIncomingMessage, HttpServerRequest, HttpServerResponse } from "@effect/platform"
import type { HttpApp } from "@effect/platform"
import type { Gcra } from "@costline/core"
import { Cause, type Duration, Effect, FiberRef, Option } from "effect"
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
    const storable = StorableInput.make(routes)
    const cors = Cors.make(options.cors, routes)
    const readTimeout = ReadTimeout.make(options.readTimeout)
    /**
     * The request-wide rules every request meets first, asked in plain code in the step that
     * serves the request: the answer (or refusal) of the first that takes the request, else
     * `next`. In order: CORS (an allowed origin's preflight; its headers on any other answer),
     * the edge routes, the canonical path.
     */
    const gated = <E, R>(request: HttpServerRequest.HttpServerRequest, facts: RequestFiber.Facts, next: HttpApp.Default<E, R>) =>
      (cors?.(request, facts) ?? edgeRoutes(request) ?? CanonicalPath.refusal(routes, request) ?? next) as HttpApp.Default<unknown, R>

    const respond = (
      version: ApiVersion,
      router: HttpApp.Default<unknown, HttpServerRequest.HttpServerRequest>,
      withBody: HttpApp.Default<unknown, HttpServerRequest.HttpServerRequest>,
      request: HttpServerRequest.HttpServerRequest,
      requestId: string,
      facts: RequestFiber.Facts,
      fiber: RequestFiber.AnyFiber
    ) => {
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
      // Most requests carry no body: nothing to check or read, and the request is served as it
      // came (no second request in the context, no body limit to set). The rest of the rules
      // about what a request carries are plain checks too.
      if (!BodyLimits.announcesBody(request)) {
        return Effect.catchAllCause(
          gated(request, facts, StorableInput.refusalInUrl(routes, request) ?? router),
          (cause) => answer(cause, request)
        )
      }
      // One instance reads the body, so whoever reads it again (error reporting) gets the same
      // text; the rules then run on it, after the body's own limits.
      return BodyLimits.check(request, maxBodyBytes).pipe(
        Effect.zipRight(UnannouncedBody.bounded(request, maxBodyBytes, options.readTimeout)),
        Effect.map(BodyLimits.asPlainJson),
        Effect.matchCauseEffect({
          onFailure: (cause) => answer(cause, request),
          onSuccess: (readable) =>
            Effect.catchAllCause(
              readable === request
                ? gated(request, facts, withBody)
                : RequestFiber.providing(fiber, HttpServerRequest.HttpServerRequest, readable, gated(readable, facts, withBody)),
              (cause) => answer(cause, readable)
            )
        }),
        (checked) =>
          RequestFiber.providing(fiber, HttpIncomingMessage.MaxBodySize, Option.some(FileSystem.Size(maxBodyBytes)), checked)
      )
    }

    /**
     * The answer as it leaves: the headers its handler recorded and the pipeline's own, the
     * `RateLimit` field of an answer that never reached an operation, then its route, duration and
     * status for the access log, the metrics and the trace. Plain code but for those last two steps.
     */
    const finish = (
      version: ApiVersion,
      fiber: RequestFiber.AnyFiber,
      request: HttpServerRequest.HttpServerRequest,
      requestId: string,
      facts: RequestFiber.Facts,
      started: number,
      matchedRoute: () => Option.Option<RouteTable.Match>
    ) => {
      const observe = (response: HttpServerResponse.HttpServerResponse) => {
        if (!observed) return Effect.succeed(response)
        const durationMs = RequestFiber.currentTimeMillis(fiber) - started
        const matched = matchedRoute()
        // The template (`/v2/teams/:team_id`), never the concrete path: ids and emails stay out.
        const route = Option.isSome(matched) ? matched.value.route.path : null
        options.metrics?.request(request.method, route, response.status, durationMs / 1000)
        if (options.accessLog) AccessLog.log(fiber, route, request, response, durationMs)
        return options.tracing
          ? Effect.as(Effect.annotateCurrentSpan({ "http.route": route ?? "", "costline.request_id": requestId }), response)
          : Effect.succeed(response)
      }
      return (response: HttpServerResponse.HttpServerResponse) => {
        const headed = HttpServerResponse.setHeaders(response, {
          // What the handler gave its answer (`Respond.setHeaders`) and CORS's, then the pipeline's own.
          ...facts.headers,
          [RequestId.HEADER]: requestId,
          ...(options.rateLimit !== undefined && RateLimit.appliesTo(request.url)
            ? { [RateLimit.POLICY_HEADER]: RateLimit.policyValue(options.rateLimit) }
            : {}),
          ...(version === "v1"
            ? Deprecation.headers(options.deprecation, matchedRoute())
            : {})
        })
        // Without a rate limit there is nothing to add to answers that never reached an operation.
        return options.rateLimit === undefined ? observe(headed) : Effect.flatMap(unrouted(request, headed, facts), observe)
      }
    }
    const observed = options.accessLog || options.metrics !== undefined || options.tracing === true

    return (router: HttpApp.Default): HttpApp.Default<never, HttpServerRequest.HttpServerRequest> => {
      // What a request with a body meets behind the request-wide rules, composed once.
      const withBody = readTimeout(BodyLimits.nestingLimit(storable(router)))
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
        const version = versionOf(request.url)
        const served = Effect.flatMap(
          respond(version, router, withBody, request, requestId, facts, fiber),
          finish(version, fiber, request, requestId, facts, started, matchedRoute)
        )
        const annotation = JsonLines.onlyWriter(fiber.getFiberRef(FiberRef.currentLoggers)) === undefined
          ? RequestFiber.annotateLogs({ [RequestFiber.REQUEST_ID_ANNOTATION]: requestId })
          : undefined
        const before = begun === undefined ? annotation : annotation === undefined ? begun : Effect.zipRight(begun, annotation)
        return before === undefined ? served : Effect.zipRight(before, served)
      })
    }
  })
