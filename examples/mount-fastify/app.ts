/** A Fastify application with routes of its own that serves the costline API under `/cost`. */
import type { NodeHandler } from "@costline/http"
import Fastify, { type FastifyReply, type FastifyRequest } from "fastify"
import { COST_PREFIX, HOST_GREETING } from "../shared/host.js"

export const createApp = (costline: NodeHandler) => {
  const app = Fastify()
  app.get("/hello", async () => HOST_GREETING)
  app.post("/echo", async (request) => ({ received: request.body }))

  // costline answers on the raw request and response, which Fastify hands over (`hijack`) and
  // never touches again. Its own plugin scope, so that only here bodies are left unread.
  app.register(async (scope) => {
    scope.removeAllContentTypeParsers()
    scope.addContentTypeParser("*", (_request, _payload, done) => done(null))
    const toCostline = (request: FastifyRequest, reply: FastifyReply) => {
      reply.hijack()
      costline(request.raw, reply.raw)
    }
    scope.all("/", toCostline)
    scope.all("/*", toCostline)
  }, { prefix: COST_PREFIX })
  return app
}
