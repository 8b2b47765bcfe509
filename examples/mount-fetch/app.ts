/**
 * A Hono application with routes of its own that serves the costline API under `/cost`, through
 * costline's fetch-style handler: `(Request) => Promise<Response>`, the shape of Hono, Bun, Deno
 * and workers alike.
 */
import type { WebHandler } from "@costline/http"
import { Hono } from "hono"
import { COST_PREFIX, HOST_GREETING } from "../shared/host.js"

export const createApp = (costline: WebHandler) => {
  const app = new Hono()
  app.get("/hello", (c) => c.json(HOST_GREETING))
  app.post("/echo", async (c) => c.json({ received: await c.req.json() }))
  // The request as it came (`c.req.raw`), prefix included: costline, told its basePath, takes it
  // off. (`app.mount` would take it off first.)
  app.all(COST_PREFIX, (c) => costline(c.req.raw))
  app.all(`${COST_PREFIX}/*`, (c) => costline(c.req.raw))
  return app
}
