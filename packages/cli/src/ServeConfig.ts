/**
 * What `costline serve` reads from the environment beyond its flags: the HTTP edge settings of
 * `@costline/http` (docs/operations.md lists them). Each has a safe default; a value that does
 * not parse stops the server with a one-line reason rather than being ignored.
 */
import { Gcra } from "@costline/core"
import type { ServeOptions, Tracing } from "@costline/http"
import { Config, ConfigError, Duration, Either, LogLevel, Option, Schema } from "effect"

export type EdgeOptions = Pick<
  ServeOptions<unknown>,
  "rateLimit" | "readTimeout" | "cors" | "drainTimeout" | "attributionTimeout" | "headersTimeout" | "authFailureLimit" | "trustedProxies"
>

/** `off`, or `<requests per second>/<burst>` such as `50/100`. */
export const parseRateLimit = (text: string): Either.Either<Gcra.RateLimitPolicy | false, string> => {
  if (text.trim().toLowerCase() === "off") return Either.right(false)
  const [rate, burst, ...rest] = text.split("/").map((part) => part.trim())
  const policy = Schema.decodeUnknownEither(Gcra.RateLimitPolicy)({ requestsPerSecond: Number(rate), burst: Number(burst) })
  return rest.length === 0 && rate !== "" && burst !== "" && Either.isRight(policy)
    ? Either.right(policy.right)
    : Either.left("must be 'off' or '<requests per second>/<burst>', e.g. 50/100")
}

/** `*`, or origins separated by commas. */
export const parseOrigins = (text: string): ReadonlyArray<string> | "*" =>
  text.trim() === "*" ? "*" : text.split(",").map((origin) => origin.trim()).filter((origin) => origin.length > 0)

const ratePolicy = (name: string) =>
  Config.string(name).pipe(
    Config.mapOrFail((text) => Either.mapLeft(parseRateLimit(text), (reason) => ConfigError.InvalidData([name], `${name} ${reason}`))),
    Config.option
  )

const rateLimit = ratePolicy("COSTLINE_RATE_LIMIT")

const milliseconds = (name: string) =>
  Config.integer(name).pipe(
    Config.validate({ message: `${name} must be a positive number of milliseconds`, validation: (ms) => ms > 0 }),
    Config.map(Duration.millis),
    Config.option
  )

const DEFAULT_PORT = 8080

const portFrom = (name: string) =>
  Config.integer(name).pipe(
    Config.validate({ message: `${name} must be a port number, 1 to 65535`, validation: (port) => port >= 1 && port <= 65535 }),
    Config.option
  )

/** The port when `--port` is not given: `COSTLINE_PORT`, else `PORT` (what hosting platforms set), else 8080. */
export const environmentPort: Config.Config<number> = Config.all([portFrom("COSTLINE_PORT"), portFrom("PORT")]).pipe(
  Config.map(([costlinePort, platformPort]) =>
    Option.getOrElse(Option.orElse(costlinePort, () => platformPort), () => DEFAULT_PORT)
  )
)

export const edgeOptions: Config.Config<EdgeOptions> = Config.all({
  rateLimit,
  readTimeout: milliseconds("COSTLINE_READ_TIMEOUT_MS"),
  drainTimeout: milliseconds("COSTLINE_DRAIN_TIMEOUT_MS"),
  attributionTimeout: milliseconds("COSTLINE_ATTRIBUTION_TIMEOUT_MS"),
  headersTimeout: milliseconds("COSTLINE_HEADERS_TIMEOUT_MS"),
  authFailureLimit: ratePolicy("COSTLINE_AUTH_FAILURE_LIMIT"),
  trustedProxies: Config.integer("COSTLINE_TRUSTED_PROXIES").pipe(
    Config.validate({ message: "COSTLINE_TRUSTED_PROXIES must be 0 or more", validation: (hops) => hops >= 0 }),
    Config.option
  ),
  cors: Config.string("COSTLINE_CORS_ORIGINS").pipe(Config.map(parseOrigins), Config.option)
}).pipe(
  Config.map((options) => ({
    rateLimit: Option.getOrUndefined(options.rateLimit),
    readTimeout: Option.getOrUndefined(options.readTimeout),
    drainTimeout: Option.getOrUndefined(options.drainTimeout),
    attributionTimeout: Option.getOrUndefined(options.attributionTimeout),
    headersTimeout: Option.getOrUndefined(options.headersTimeout),
    authFailureLimit: Option.getOrUndefined(options.authFailureLimit),
    trustedProxies: Option.getOrUndefined(options.trustedProxies),
    cors: Option.getOrUndefined(Option.map(options.cors, (origins) => ({ origins })))
  }))
)

/** `COSTLINE_METRICS`: unset or `off`; `on` (at `/metrics` on the API port); or a port of its own. */
export type MetricsSetting = { readonly _tag: "off" } | { readonly _tag: "api" } | { readonly _tag: "port"; readonly port: number }

export const parseMetrics = (text: string): Either.Either<MetricsSetting, string> => {
  const value = text.trim().toLowerCase()
  if (value === "" || value === "off") return Either.right({ _tag: "off" })
  if (value === "on") return Either.right({ _tag: "api" })
  const port = Number(value)
  return Number.isInteger(port) && port >= 1 && port <= 65535
    ? Either.right({ _tag: "port", port })
    : Either.left("COSTLINE_METRICS must be 'on', 'off' or a port number (1 to 65535)")
}

const LOG_LEVELS: Record<string, LogLevel.LogLevel> = {
  debug: LogLevel.Debug,
  info: LogLevel.Info,
  warning: LogLevel.Warning,
  warn: LogLevel.Warning,
  error: LogLevel.Error,
  none: LogLevel.None
}

export const observabilityOptions = Config.all({
  metrics: Config.string("COSTLINE_METRICS").pipe(
    Config.mapOrFail((text) => Either.mapLeft(parseMetrics(text), (reason) => ConfigError.InvalidData([], reason))),
    Config.withDefault<MetricsSetting>({ _tag: "off" })
  ),
  logLevel: Config.string("COSTLINE_LOG_LEVEL").pipe(
    Config.mapOrFail((text) => {
      const level = LOG_LEVELS[text.trim().toLowerCase()]
      return level === undefined
        ? Either.left(ConfigError.InvalidData([], "COSTLINE_LOG_LEVEL must be debug, info, warning, error or none"))
        : Either.right(level)
    }),
    Config.option,
    Config.map(Option.getOrUndefined)
  )
})

/**
 * Trace export, configured by OpenTelemetry's standard variables: `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`
 * (the traces URL) or `OTEL_EXPORTER_OTLP_ENDPOINT` (a base URL; `/v1/traces` is appended), `…_PROTOCOL`
 * (`http/protobuf`, the default, or `http/json`), `…_HEADERS` (`k=v,k2=v2`), `OTEL_SERVICE_NAME`,
 * `OTEL_BSP_SCHEDULE_DELAY` (ms); `OTEL_SDK_DISABLED=true` or `OTEL_TRACES_EXPORTER=none` turn it off.
 */
const otelText = (name: string) => Config.string(name).pipe(Config.option, Config.map(Option.filter((text) => text.trim() !== "")))

const invalid = (reason: string) => Either.left(ConfigError.InvalidData([], reason))

/** `k=v,k2=v2`, values percent-encoded (the OpenTelemetry exporter convention). */
export const parseOtlpHeaders = (text: string): Either.Either<Record<string, string>, string> => {
  const headers: Record<string, string> = {}
  for (const pair of text.split(",").map((part) => part.trim()).filter((part) => part !== "")) {
    const at = pair.indexOf("=")
    if (at <= 0) return Either.left(`OTEL_EXPORTER_OTLP_HEADERS must be 'key=value' pairs separated by commas`)
    try {
      headers[pair.slice(0, at).trim()] = decodeURIComponent(pair.slice(at + 1).trim())
    } catch {
      return Either.left(`OTEL_EXPORTER_OTLP_HEADERS has a value that is not percent-encoded correctly`)
    }
  }
  return Either.right(headers)
}

const tracesUrl = (traces: Option.Option<string>, base: Option.Option<string>): Option.Option<string> =>
  Option.isSome(traces)
    ? Option.some(traces.value.trim())
    : Option.map(base, (url) => `${url.trim().replace(/\/+$/, "")}/v1/traces`)

export const tracingOptions: Config.Config<Option.Option<Tracing.OtlpOptions>> = Config.all({
  disabled: otelText("OTEL_SDK_DISABLED"),
  exporter: otelText("OTEL_TRACES_EXPORTER"),
  traces: otelText("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT"),
  base: otelText("OTEL_EXPORTER_OTLP_ENDPOINT"),
  protocol: Config.all([otelText("OTEL_EXPORTER_OTLP_TRACES_PROTOCOL"), otelText("OTEL_EXPORTER_OTLP_PROTOCOL")]),
  headers: Config.all([otelText("OTEL_EXPORTER_OTLP_TRACES_HEADERS"), otelText("OTEL_EXPORTER_OTLP_HEADERS")]),
  serviceName: otelText("OTEL_SERVICE_NAME"),
  delay: otelText("OTEL_BSP_SCHEDULE_DELAY")
}).pipe(
  Config.mapOrFail((env): Either.Either<Option.Option<Tracing.OtlpOptions>, ConfigError.ConfigError> => {
    const url = tracesUrl(env.traces, env.base)
    const off = Option.exists(env.disabled, (text) => text.trim().toLowerCase() === "true") ||
      Option.exists(env.exporter, (text) => !text.split(",").map((name) => name.trim().toLowerCase()).includes("otlp"))
    if (off || Option.isNone(url)) return Either.right(Option.none())
    if (!URL.canParse(url.value) || !/^https?:$/.test(new URL(url.value).protocol)) {
      return invalid(`the OTLP endpoint must be an http(s) URL, got '${url.value}'`)
    }
    const protocol = Option.getOrElse(Option.orElse(env.protocol[0], () => env.protocol[1]), () => "http/protobuf").trim()
    if (protocol !== "http/protobuf" && protocol !== "http/json") {
      return invalid(`OTEL_EXPORTER_OTLP_PROTOCOL must be http/protobuf or http/json (grpc is not supported), got '${protocol}'`)
    }
    const headers = Option.orElse(env.headers[0], () => env.headers[1])
    const parsedHeaders = Option.isSome(headers) ? parseOtlpHeaders(headers.value) : Either.right(undefined)
    if (Either.isLeft(parsedHeaders)) return invalid(parsedHeaders.left)
    const delay = Option.map(env.delay, Number)
    if (Option.exists(delay, (ms) => !Number.isInteger(ms) || ms <= 0)) {
      return invalid("OTEL_BSP_SCHEDULE_DELAY must be a positive number of milliseconds")
    }
    return Either.right(Option.some({
      url: url.value,
      protocol,
      headers: parsedHeaders.right,
      exportInterval: Option.getOrUndefined(Option.map(delay, Duration.millis)),
      serviceName: Option.getOrElse(env.serviceName, () => "costline")
    }))
  })
)
