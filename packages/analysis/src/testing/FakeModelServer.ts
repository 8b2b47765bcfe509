/**
 * A fake OpenAI-compatible endpoint on 127.0.0.1 for the provider tests: it answers the n-th
 * request with a scripted reply (or never answers) and records what it received.
 */
import { Effect } from "effect"
import { createServer, type IncomingHttpHeaders } from "node:http"
import type { AddressInfo } from "node:net"

export type Reply =
  | { readonly status: number; readonly body: string; readonly headers?: Record<string, string> }
  | "never"

export interface Received {
  readonly method: string | undefined
  readonly url: string | undefined
  readonly headers: IncomingHttpHeaders
  readonly body: unknown
}

export const completion = (content: string): Reply => ({
  status: 200,
  headers: { "content-type": "application/json" },
  body: JSON.stringify({ id: "cmpl-1", object: "chat.completion", choices: [{ index: 0, message: { role: "assistant", content } }] })
})

export interface FakeModelServer {
  /** What a provider is configured with, e.g. `http://127.0.0.1:4321/v1`. */
  readonly baseUrl: string
  readonly received: ReadonlyArray<Received>
}

/** Starts the server for the scope; `reply(n)` scripts the answer to the n-th request (0-based). */
export const fakeModelServer = (reply: (n: number) => Reply) =>
  Effect.gen(function*() {
    const received: Array<Received> = []
    const server = createServer((request, response) => {
      const chunks: Array<Buffer> = []
      request.on("data", (chunk: Buffer) => chunks.push(chunk))
      request.on("end", () => {
        const text = Buffer.concat(chunks).toString("utf8")
        received.push({ method: request.method, url: request.url, headers: request.headers, body: text === "" ? undefined : JSON.parse(text) })
        const scripted = reply(received.length - 1)
        if (scripted !== "never") response.writeHead(scripted.status, scripted.headers ?? {}).end(scripted.body)
      })
    })
    const port = yield* Effect.acquireRelease(
      Effect.async<number>((resume) => {
        server.listen(0, "127.0.0.1", () => resume(Effect.succeed((server.address() as AddressInfo).port)))
      }),
      () =>
        Effect.async<void>((resume) => {
          // Requests the script never answers would keep close() waiting.
          server.closeAllConnections()
          server.close(() => resume(Effect.void))
        })
    )
    return { baseUrl: `http://127.0.0.1:${port}/v1`, received } satisfies FakeModelServer
  })

/** A base URL on which nothing listens: a port that was just released. */
export const closedPortUrl = Effect.async<string>((resume) => {
  const server = createServer()
  server.listen(0, "127.0.0.1", () => {
    const { port } = server.address() as AddressInfo
    server.close(() => resume(Effect.succeed(`http://127.0.0.1:${port}/v1`)))
  })
})
