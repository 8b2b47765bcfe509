/**
 * A plain node:http server with routes of its own that serves the costline API under `/cost`:
 * the host decides which requests are costline's, and hands those over untouched.
 */
import type { NodeHandler } from "@costline/http"
import { createServer, type IncomingMessage, type ServerResponse } from "node:http"
import { text } from "node:stream/consumers"
import { COST_PREFIX, HOST_GREETING } from "../shared/host.js"

const isCostline = (url: string) => {
  const path = url.split("?", 1)[0]!
  return path === COST_PREFIX || path.startsWith(`${COST_PREFIX}/`)
}

const sendJson = (response: ServerResponse, status: number, body: unknown) =>
  response.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body))

/** The host's own routes. */
const host = async (request: IncomingMessage, response: ServerResponse) => {
  if (request.method === "GET" && request.url === "/hello") return sendJson(response, 200, HOST_GREETING)
  if (request.method === "POST" && request.url === "/echo") {
    try {
      return sendJson(response, 200, { received: JSON.parse(await text(request)) })
    } catch {
      return sendJson(response, 400, { error: "the body is not JSON" })
    }
  }
  return sendJson(response, 404, { error: "no such route" })
}

export const createHostServer = (costline: NodeHandler) =>
  createServer((request, response) => {
    if (isCostline(request.url ?? "/")) return costline(request, response)
    void host(request, response)
  })
