/** What a host chooses when it runs the API. */
import { AnalysisLive } from "@costline/analysis"
import { Gcra, Secrets, StorePool } from "@costline/core"
import type { Core, QueryAnalysis } from "@costline/core"
import { HttpMiddleware } from "@effect/platform"
import { type ConfigError, Context, Duration, Effect, Layer, Logger, type LogLevel, Option, Runtime } from "effect"
import * as JsonLines from "./logging/JsonLines.js"
import * as AuthFailureLimit from "./middleware/AuthFailureLimit.js"
import { DEFAULT_MAX_BODY_BYTES, DEFAULT_MAX_INGEST_BODY_BYTES } from "./middleware/BodyLimits.js"
import type { CorsOptions } from "./middleware/Cors.js"
import { DEFAULT_POLICY, type DeprecationPolicy } from "./middleware/Deprecation.js"
import type { PipelineOptions } from "./middleware/Pipeline.js"
import { type Metrics, ServerMetrics } from "./observability/Metrics.js"
import { DEFAULT_READ_TIMEOUT } from "./middleware/ReadTimeout.js"
import { ExampleTenant } from "./openapi/Examples.js"

export interface ApiOptions<E = never> {
  /** The storage: any layer providing core's repositories (SQLite, Postgres, a test double). */
  readonly store: Layer.Layer<Core.Repositories, E>
  /** Largest request body accepted, in bytes; larger ones get 413. Default 1 MiB. */
  readonly maxBodyBytes?: number | undefined
  /** Largest body of `POST /v2/dw-ingestions` (whole export files), in bytes. Default 64 MiB. */
  readonly maxIngestBodyBytes?: number | undefined
  /** Log one line per request (method, path, status, duration, request id). Default off. */
  readonly accessLog?: boolean | undefined
  /** Dates announced in the v1 `Deprecation` and `Sunset` headers. */
  readonly deprecation?: DeprecationPolicy | undefined
  /**
   * Requests per credential (GCRA): default 50 per second in bursts of 100; `false` turns rate
   * limiting off. Over Postgres every instance shares the budgets.
   */
  readonly rateLimit?: Gcra.RateLimitPolicy | false | undefined
  /**
   * Failed authentications per client address (GCRA): default 1 per second in bursts of 20, then
   * 429 before any credential lookup; `false` turns it off. Kept in each instance's memory.
   */
  readonly authFailureLimit?: Gcra.RateLimitPolicy | false | undefined
  /**
   * How many reverse proxies in front of the API append to `X-Forwarded-For`. Default 0: the
   * header is not trusted and the client address is the socket's peer.
   */
  readonly trustedProxies?: number | undefined
  /** How long a request body may take to arrive once the headers are in; then 408. Default 30 s. */
  readonly readTimeout?: Duration.DurationInput | undefined
  /**
   * How long a usage attribution (`GET /v2/usage-group-sets/{id}/attribution`) may run; then it is
   * stopped and answered 503. Default 30 s.
   */
  readonly attributionTimeout?: Duration.DurationInput | undefined
  /** Cross-origin access for browser clients. Default off. */
  readonly cors?: CorsOptions | undefined
  /**
   * The master keys that seal warehouse credentials. Default: `COSTLINE_SECRET_KEY` or
   * `COSTLINE_SECRET_KEYS`, else a key that dies with the process (a warning says so).
   */
  readonly secrets?: Layer.Layer<Secrets.Secrets, ConfigError.ConfigError> | undefined
  /**
   * Query analysis and code changes. Default: the model provider `COSTLINE_LLM_*` configures, else
   * the built-in deterministic rewriter.
   */
  readonly analysis?: Layer.Layer<QueryAnalysis.QueryAnalyzer | QueryAnalysis.CodeChanges, ConfigError.ConfigError> | undefined
  /**
   * Spans for every request and every SQL statement. Default off: unless the runtime has a tracer
   * that exports them (e.g. `@effect/opentelemetry`), they only cost CPU on every request.
   */
  readonly tracing?: boolean | undefined
  /**
   * Prometheus metrics (`Metrics.make()`): requests by route, method and status, latency,
   * refusals, audit export lag, process metrics. `exposeMetrics` also answers `GET /metrics` on
   * the API's own port (unauthenticated); otherwise the host serves `metrics.scrape` where it wants.
   */
  readonly metrics?: Metrics | undefined
  readonly exposeMetrics?: boolean | undefined
  /** Least severe log level written (default `Info`); logs are JSON lines on stdout in every mode. */
  readonly logLevel?: LogLevel.LogLevel | undefined
  /**
   * The organization the OpenAPI documents' request examples are for, so that "Try it out" on the
   * docs page works with its first click: `x-tenant-id`, v1's `{organization_id}`. Default `demo`
   * (what `costline serve --demo` and `costline seed` create).
   */
  readonly docsTenant?: string | undefined
}

export const docsTenantLayer = (options: ApiOptions<unknown>): Layer.Layer<never> =>
  options.docsTenant === undefined ? Layer.empty : Layer.succeed(ExampleTenant, options.docsTenant)

export const DEFAULT_ATTRIBUTION_TIMEOUT = Duration.seconds(30)

/** The attribution deadline the handlers apply; ApiLive provides the host's choice. */
export class AttributionTimeout extends Context.Reference<AttributionTimeout>()("@costline/http/AttributionTimeout", {
  defaultValue: (): Duration.Duration => DEFAULT_ATTRIBUTION_TIMEOUT
}) {}

export const attributionTimeoutLayer = (options: ApiOptions<unknown>): Layer.Layer<never> =>
  Layer.succeed(AttributionTimeout, Duration.decode(options.attributionTimeout ?? DEFAULT_ATTRIBUTION_TIMEOUT))

export const secretsLayer = (options: ApiOptions<unknown>) => options.secrets ?? Secrets.Secrets.layerFromConfigOrEphemeral

export const analysisLayer = (options: ApiOptions<unknown>) => options.analysis ?? AnalysisLive

/** The rate-limit policy in force, or `false` when it is off. */
export const rateLimitPolicy = (options: ApiOptions<unknown>): Gcra.RateLimitPolicy | false =>
  options.rateLimit ?? Gcra.DEFAULT_POLICY

/** Turns span creation off (HTTP server spans and `@effect/sql` statement spans) unless asked for. */
export const tracingLayer = (options: ApiOptions<unknown>): Layer.Layer<never> =>
  options.tracing === true
    ? Layer.empty
    : Layer.mergeAll(
      Layer.setTracerEnabled(false),
      // The platform's server middleware reads this before it builds a span's attributes.
      Layer.locallyScoped(HttpMiddleware.currentTracerDisabledWhen, () => true)
    )

export const authFailureLayer = (options: ApiOptions<unknown>) =>
  AuthFailureLimit.layer(options.authFailureLimit ?? AuthFailureLimit.DEFAULT_AUTH_FAILURE_POLICY, options.trustedProxies ?? 0)

export const pipelineOptions = (options: ApiOptions<unknown>): PipelineOptions => {
  const rateLimit = rateLimitPolicy(options)
  return {
    maxBodyBytes: options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES,
    maxIngestBodyBytes: options.maxIngestBodyBytes ?? DEFAULT_MAX_INGEST_BODY_BYTES,
    accessLog: options.accessLog ?? false,
    deprecation: options.deprecation ?? DEFAULT_POLICY,
    rateLimit: rateLimit === false ? undefined : rateLimit,
    readTimeout: options.readTimeout ?? DEFAULT_READ_TIMEOUT,
    cors: options.cors,
    metrics: options.metrics,
    exposeMetrics: options.metrics !== undefined && options.exposeMetrics === true,
    tracing: options.tracing === true
  }
}

/**
 * How the API logs, the same in the bundled server and when mounted: JSON lines, from `logLevel`
 * up. With tracing off, without Effect's tracer logger, which only adds entries to the current
 * span and has none to add to (a dispatch and a context lookup per entry, for nothing).
 */
export const loggingLayer = (options: ApiOptions<unknown>): Layer.Layer<never> =>
  Layer.mergeAll(
    JsonLines.layer,
    options.logLevel === undefined ? Layer.empty : Logger.minimumLogLevel(options.logLevel),
    options.tracing === true ? Layer.empty : Logger.remove(Logger.tracerLogger)
  )

/** The metrics as a service for the handlers that report their own figures (the audit export). */
export const metricsLayer = (options: ApiOptions<unknown>): Layer.Layer<never> | Layer.Layer<ServerMetrics> =>
  options.metrics === undefined ? Layer.empty : Layer.succeed(ServerMetrics, options.metrics)

/** With metrics on, `/metrics` samples the store's connections (core `StorePool`, when the store provides it). */
export const storePoolMetricsLayer = (options: ApiOptions<unknown>): Layer.Layer<never> => {
  const metrics = options.metrics
  return metrics === undefined ? Layer.empty : Layer.effectDiscard(Effect.gen(function*() {
    const pool = yield* Effect.serviceOption(StorePool.StorePool)
    if (Option.isNone(pool)) return
    const runtime = yield* Effect.runtime<never>()
    metrics.watchStorePool(() => Runtime.runPromise(runtime)(pool.value.usage))
  }))
}
