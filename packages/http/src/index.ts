/**
 * @costline/http: the cost-monitoring API (v2 and the deprecated v1) over any costline store.
 * `serve` runs the bundled server; `makeHandler` / `toWebHandler` mount the API in a host;
 * `ApiLive` is the composition for Effect applications; `CostlineApi` the definition (clients,
 * OpenAPI).
 */
export { CostlineApi } from "./api/Api.js"
export { type Disposable, makeHandler, type MountOptions, type NodeHandler, toWebHandler, type WebHandler } from "./Hosting.js"
export { ApiLive } from "./Layers.js"
export { DEFAULT_MAX_BODY_BYTES } from "./middleware/BodyLimits.js"
export { MAX_JSON_DEPTH } from "./middleware/JsonDepth.js"
export { DEFAULT_POLICY as DEFAULT_DEPRECATION_POLICY, type DeprecationPolicy } from "./middleware/Deprecation.js"
export * as Metrics from "./observability/Metrics.js"
export * as Tracing from "./observability/Tracing.js"
export type { ApiOptions } from "./Options.js"
export { serve, type ServeOptions } from "./Server.js"
