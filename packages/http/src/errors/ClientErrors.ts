/**
 * The requests Node answers itself, before any handler sees them: a malformed request (400), a
 * header section over the size limit (431), chunk extensions over theirs (413), headers that did
 * not arrive within the headers timeout (408), an `Expect` other than `100-continue` (417). Node writes a bare status line (or
 * an empty chunked body); here they get the API's documented body, in the caller's version when
 * the request line says which (problem+json, or v1's `{"detail": ...}`), and the connection is
 * closed as Node would.
 */
import { type IncomingMessage, type ServerResponse, STATUS_CODES } from "node:http"
import type { Duplex } from "node:stream"
import { type ApiVersion, versionOf } from "../api/Versions.js"
import * as RequestId from "../middleware/RequestId.js"
import { PROBLEMS, type ProblemCode } from "./Problem.js"
import { CONTENT_TYPE, problemType } from "./ProblemJson.js"

const REFUSALS = {
  HPE_HEADER_OVERFLOW: { code: "headers_too_large", detail: "the request's header section is too large" },
  HPE_CHUNK_EXTENSIONS_OVERFLOW: { code: "payload_too_large", detail: "the body's chunk extensions are too large" },
  ERR_HTTP_REQUEST_TIMEOUT: { code: "request_timeout", detail: "the request's headers did not arrive in time" }
} as const satisfies Record<string, { readonly code: ProblemCode; readonly detail: string }>

const MALFORMED = { code: "bad_request", detail: "the request is not valid HTTP/1.1" } as const

/** The head and body of an answer in `version`'s shape. */
const answer = (version: ApiVersion, code: ProblemCode, detail: string, requestId: string) => {
  const { status, title } = PROBLEMS[code]
  const body = version === "v1"
    ? JSON.stringify({ detail })
    : JSON.stringify({ type: problemType(code), title, status, detail, code, details: [], request_id: requestId })
  const headers = {
    "content-type": version === "v1" ? "application/json" : CONTENT_TYPE,
    "content-length": String(Buffer.byteLength(body)),
    "x-request-id": requestId,
    connection: "close"
  }
  return { status, reason: STATUS_CODES[status] ?? title, headers, body }
}

/** The request line's path when the packet Node failed on starts with one, for the version. */
const pathOf = (rawPacket: unknown): string => {
  if (!Buffer.isBuffer(rawPacket)) return "/"
  return /^[A-Z]+ (\/\S*)/.exec(rawPacket.subarray(0, 512).toString("latin1"))?.[1] ?? "/"
}

/** `server.on("clientError", onClientError)`: as Node's own answer, with a body. */
export const onClientError = (error: Error & { readonly code?: string; readonly rawPacket?: unknown }, socket: Duplex) => {
  // As Node: only a connection on which nothing was written yet gets an answer.
  const written = (socket as Duplex & { readonly bytesWritten?: number }).bytesWritten ?? 0
  if (error.code !== "ECONNRESET" && socket.writable && written === 0) {
    const refusal = (REFUSALS as Record<string, { readonly code: ProblemCode; readonly detail: string }>)[error.code ?? ""] ?? MALFORMED
    const { body, headers, reason, status } = answer(versionOf(pathOf(error.rawPacket)), refusal.code, refusal.detail, RequestId.fromHeader(undefined))
    const head = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`).join("")
    socket.write(`HTTP/1.1 ${status} ${reason}\r\n${head}\r\n${body}`)
  }
  socket.destroy()
}

/** `server.on("checkExpectation", onUnmetExpectation)`: an `Expect` this server does not meet. */
export const onUnmetExpectation = (request: IncomingMessage, response: ServerResponse) => {
  const requestId = RequestId.fromHeader(request.headers[RequestId.HEADER] as string | undefined)
  const { body, headers, status } = answer(
    versionOf(request.url ?? "/"),
    "expectation_failed",
    "the only Expect this server meets is 100-continue",
    requestId
  )
  response.writeHead(status, headers).end(body)
}
