/** What a host chooses when it runs the API. */
import type { Repositories } from "@costline/core"
import type { Layer } from "effect"
import { DEFAULT_MAX_BODY_BYTES } from "./middleware/BodyLimits.js"
import { DEFAULT_POLICY, type DeprecationPolicy } from "./middleware/Deprecation.js"
import type { PipelineOptions } from "./middleware/Pipeline.js"

export interface ApiOptions<E = never> {
  /** The storage: any layer providing core's repositories (SQLite, Postgres, a test double). */
  readonly store: Layer.Layer<Repositories, E>
  /** Largest request body accepted, in bytes; larger ones get 413. Default 1 MiB. */
  readonly maxBodyBytes?: number | undefined
  /** Log one line per request (method, path, status, duration, request id). Default off. */
  readonly accessLog?: boolean | undefined
  /** Dates announced in the v1 `Deprecation` and `Sunset` headers. */
  readonly deprecation?: DeprecationPolicy | undefined
}

export const pipelineOptions = (options: ApiOptions<unknown>): PipelineOptions => ({
  maxBodyBytes: options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES,
  accessLog: options.accessLog ?? false,
  deprecation: options.deprecation ?? DEFAULT_POLICY
})
