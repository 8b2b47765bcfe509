/** An Express application with routes of its own that serves the costline API under `/cost`. */
import type { NodeHandler } from "@costline/http"
import express from "express"
import { COST_PREFIX, HOST_GREETING } from "../shared/host.js"

export const createApp = (costline: NodeHandler) => {
  const app = express()
  // `all`, not `use`: `use` takes `/cost` off the URL, and costline, told its basePath, expects it
  // there. Ahead of the body parser, which would consume the bodies costline reads itself.
  app.all([COST_PREFIX, `${COST_PREFIX}/*rest`], costline)

  app.use(express.json())
  app.get("/hello", (_request, response) => {
    response.json(HOST_GREETING)
  })
  app.post("/echo", (request, response) => {
    response.json({ received: request.body })
  })
  return app
}
