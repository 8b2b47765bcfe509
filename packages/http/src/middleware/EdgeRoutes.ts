/**
 * The routes that are not API operations: the OpenAPI documents, the docs page (and `/`, which
 * leads to it) and the health probes. They are answered ahead of the API router (no credentials,
 * no tenant, no rate limit), so the router holds exactly the operations the documents describe.
 * GET and HEAD only, at their one spelling (as every route: see `RouteTable`).
 */
import { type HttpApi, type HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { StoreHealth } from "@costline/core"
import { Effect } from "effect"
import { V1_PREFIX, V2_PREFIX } from "../api/Versions.js"
import * as DocsPage from "../docs/DocsPage.js"
import { MethodNotAllowed } from "../errors/RequestErrors.js"
import * as OpenApiDocuments from "../openapi/index.js"
import type { Metrics } from "../observability/Metrics.js"
import * as Health from "./Health.js"
import * as JsonBody from "../api/JsonBody.js"

export const OPENAPI_PATHS = { v2: `${V2_PREFIX}/openapi.json`, v1: `${V1_PREFIX}/openapi.json` } as const

type Handler = Effect.Effect<HttpServerResponse.HttpServerResponse>

const READ_METHODS = ["GET", "HEAD"]

export const METRICS_PATH = "/metrics"

export const make = (
  api: HttpApi.HttpApi.Any,
  options: OpenApiDocuments.DocumentOptions & { readonly metrics?: Metrics | undefined; readonly exposeMetrics?: boolean | undefined }
) =>
  Effect.gen(function*() {
    // Built on first request, not at start-up: generating both documents took ~120 ms of cold start.
    // Encoded once too: anyone may ask for them, and each answer was 350 KB of JSON made anew.
    let documents: OpenApiDocuments.Documents | undefined
    const answers: Partial<Record<"v1" | "v2", HttpServerResponse.HttpServerResponse>> = {}
    const exampleTenant = yield* OpenApiDocuments.ExampleTenant
    const document = (version: "v1" | "v2") =>
      Effect.sync(() => {
        documents ??= OpenApiDocuments.make(api, { ...options, exampleTenant })
        return answers[version] ??= JsonBody.unsafeJson(documents[version], { headers: { "cache-control": "no-cache" } })
      })
    const assets = DocsPage.makeAssets()
    // Resolved here, not provided per request: providing it merged the whole context (its ~65
    // services) into a new one on every probe, 7% of a `/healthz`.
    const health = yield* StoreHealth.StoreHealth
    const fixed = new Map<string, Handler>([
      [OPENAPI_PATHS.v2, document("v2")],
      [OPENAPI_PATHS.v1, document("v1")],
      [DocsPage.PATH, Effect.succeed(DocsPage.page)],
      [DocsPage.ROOT, Effect.succeed(DocsPage.toPage)],
      [Health.LIVENESS_PATH, Effect.succeed(Health.liveness)],
      [Health.READINESS_PATH, Health.readiness(health)],
      [Health.VERSION_PATH, Health.version(health)]
    ])
    if (options.exposeMetrics === true && options.metrics !== undefined) {
      fixed.set(
        METRICS_PATH,
        Effect.map(options.metrics.scrape, ({ body, contentType }) =>
          HttpServerResponse.text(body, { contentType, headers: { "cache-control": "no-store" } }))
      )
    }
    const docsPrefix = `${DocsPage.PATH}/`
    const handlerFor = (path: string): Handler | undefined =>
      // Asset names are matched exactly, as they are spelled in the package.
      path.startsWith(docsPrefix) ? assets(path.slice(docsPrefix.length)) : fixed.get(path)

    /** The answer to a request for an edge route (or its 405); undefined for any other request. */
    return (request: HttpServerRequest.HttpServerRequest): Effect.Effect<HttpServerResponse.HttpServerResponse, MethodNotAllowed> | undefined => {
      const handler = handlerFor(request.url.split("?", 1)[0]!)
      if (handler === undefined) return undefined
      if (!READ_METHODS.includes(request.method)) {
        return Effect.fail(new MethodNotAllowed({ method: request.method, allowed: READ_METHODS }))
      }
      return handler
    }
  })
