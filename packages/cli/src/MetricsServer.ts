/** `COSTLINE_METRICS=<port>`: Prometheus metrics on a port of their own, apart from the API. */
import type { Metrics } from "@costline/http"
import { Effect, Layer } from "effect"
import { createServer } from "node:http"

export const metricsServer = (metrics: Metrics.Metrics, host: string, port: number): Layer.Layer<never, Error> =>
  Layer.scopedDiscard(
    Effect.acquireRelease(
      Effect.async<ReturnType<typeof createServer>, Error>((resume) => {
        const server = createServer((request, response) => {
          if (request.url?.split("?", 1)[0] !== "/metrics" || (request.method !== "GET" && request.method !== "HEAD")) {
            response.writeHead(404, { "content-type": "text/plain" }).end("metrics are at GET /metrics\n")
            return
          }
          void Effect.runPromise(metrics.scrape).then(({ body, contentType }) =>
            response.writeHead(200, { "content-type": contentType, "cache-control": "no-store" }).end(request.method === "HEAD" ? undefined : body)
          )
        })
        server.once("error", (error) => resume(Effect.fail(new Error(`metrics port ${port}: ${error.message}`))))
        server.listen(port, host, () => resume(Effect.succeed(server)))
      }),
      (server) => Effect.async<void>((resume) => {
        server.close(() => resume(Effect.void))
      })
    )
  )
