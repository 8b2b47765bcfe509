/**
 * Traces over OTLP/HTTP with `@effect/opentelemetry`'s exporter (no OpenTelemetry SDK needed):
 * server spans per request and `@effect/sql` spans per statement, batched and sent from the
 * process to a collector. Provide the layer around `serve` / `ApiLive` with `tracing: true`.
 */
import { FetchHttpClient } from "@effect/platform"
import * as OtlpSerialization from "@effect/opentelemetry/OtlpSerialization"
import * as OtlpTracer from "@effect/opentelemetry/OtlpTracer"
import { type Duration, Layer } from "effect"

export type OtlpProtocol = "http/protobuf" | "http/json"

export interface OtlpOptions {
  /** The traces URL itself, e.g. `http://collector:4318/v1/traces`. */
  readonly url: string
  readonly protocol: OtlpProtocol
  readonly headers?: Readonly<Record<string, string>> | undefined
  /** How long spans wait to be batched before they are sent (OpenTelemetry's default: 5 s). */
  readonly exportInterval?: Duration.DurationInput | undefined
  readonly serviceName?: string | undefined
  readonly serviceVersion?: string | undefined
}

/** Installs the OTLP tracer for everything built after it; flushes what is pending on release. */
export const otlp = (options: OtlpOptions): Layer.Layer<never> =>
  OtlpTracer.layer({
    url: options.url,
    headers: options.headers,
    exportInterval: options.exportInterval,
    resource: { serviceName: options.serviceName ?? "costline", serviceVersion: options.serviceVersion }
  }).pipe(
    Layer.provide(options.protocol === "http/json" ? OtlpSerialization.layerJson : OtlpSerialization.layerProtobuf),
    Layer.provide(FetchHttpClient.layer)
  )
