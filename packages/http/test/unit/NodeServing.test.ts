/**
 * costline's node serving (`routing/NodeServing.ts`) on a real node:http server: every kind of
 * response body, cookies, HEAD, the pre-response handlers, the request's body, and the answers
 * to an app that fails outside anything that would answer for it (never a hanging socket).
 */
import { HttpApp, HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { NodeHttpServerRequest } from "@effect/platform-node"
import { Deferred, Effect, Runtime, Stream } from "effect"
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { Readable } from "node:stream"
import { afterEach, describe, expect, it } from "vitest"
import * as NodeServing from "../../src/routing/NodeServing.js"

const servers: Array<Server> = []
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections()
    await new Promise((resolve) => server.close(resolve))
  }
})

const onFailure = (request: HttpServerRequest.HttpServerRequest) =>
  HttpServerResponse.unsafeJson({ failed: request.url }, { status: 500 })

/** `app` on a node server through NodeServing; resolves its origin. */
const listen = async (app: HttpApp.Default<unknown, never>) => {
  const server = createServer(NodeServing.makeHandler(app, Runtime.defaultRuntime, { tracing: false, onFailure }))
  servers.push(server)
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`
}

const byPath = (routes: Record<string, HttpApp.Default<unknown, never>>): HttpApp.Default<unknown, never> =>
  Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) => routes[request.url.split("?")[0]!] ?? Effect.dieMessage("no route"))

describe("NodeServing", () => {
  it("writes every kind of body, with its status and headers", async () => {
    const origin = await listen(byPath({
      "/json": Effect.succeed(HttpServerResponse.unsafeJson({ a: 1 }, { status: 201, headers: { "x-one": "1" } })),
      "/text": Effect.succeed(HttpServerResponse.text("plain", { contentType: "text/plain" })),
      "/empty": Effect.succeed(HttpServerResponse.empty({ status: 204, headers: { etag: "\"e\"" } })),
      "/stream": Effect.succeed(HttpServerResponse.stream(Stream.make("a", "b", "c").pipe(Stream.encodeText), { contentType: "text/plain" })),
      "/raw": Effect.succeed(HttpServerResponse.raw(Readable.from([Buffer.from("raw "), Buffer.from("stream")]))),
      "/raw-string": Effect.succeed(HttpServerResponse.raw("raw string"))
    }))
    const json = await fetch(`${origin}/json`)
    expect([json.status, json.headers.get("x-one"), json.headers.get("content-type"), await json.json()])
      .toEqual([201, "1", "application/json", { a: 1 }])
    const text = await fetch(`${origin}/text`)
    expect([text.status, text.headers.get("content-type"), await text.text()]).toEqual([200, "text/plain", "plain"])
    const empty = await fetch(`${origin}/empty`)
    expect([empty.status, empty.headers.get("etag"), await empty.text()]).toEqual([204, "\"e\"", ""])
    const stream = await fetch(`${origin}/stream`)
    expect([stream.status, await stream.text()]).toEqual([200, "abc"])
    expect(await (await fetch(`${origin}/raw`)).text()).toBe("raw stream")
    expect(await (await fetch(`${origin}/raw-string`)).text()).toBe("raw string")
  })

  it("writes an answer the app made at once at the end of its turn, not inside the request's callback", async () => {
    const handler = NodeServing.makeHandler(Effect.succeed(HttpServerResponse.text("now")), Runtime.defaultRuntime, { tracing: false, onFailure })
    let endedInCallback: boolean | undefined
    const server = createServer((req, res) => {
      handler(req, res)
      // The app answered synchronously: its fiber is done, its answer waits for the turn's end.
      endedInCallback = res.writableEnded
    })
    servers.push(server)
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
    const answer = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`)
    expect([answer.status, await answer.text(), endedInCallback]).toEqual([200, "now", false])
  })

  it("sends cookies as set-cookie lines, and HEAD gets the head without a body", async () => {
    const origin = await listen(Effect.succeed(
      HttpServerResponse.text("body").pipe(
        HttpServerResponse.setHeader("set-cookie", "a=1"),
        HttpServerResponse.unsafeSetCookie("b", "2")
      )
    ))
    const answer = await fetch(origin)
    expect(answer.headers.getSetCookie().sort()).toEqual(["a=1", "b=2"])
    const head = await fetch(origin, { method: "HEAD" })
    expect([head.status, head.headers.get("content-length"), await head.text()]).toEqual([200, "4", ""])
  })

  it("applies the pre-response handlers the app registered", async () => {
    const origin = await listen(Effect.zipRight(
      HttpApp.appendPreResponseHandler((_request, response) => Effect.succeed(HttpServerResponse.setHeader(response, "x-late", "yes"))),
      Effect.succeed(HttpServerResponse.empty())
    ))
    expect((await fetch(origin)).headers.get("x-late")).toBe("yes")
  })

  it("reads the request's body once, whichever request derived from it reads it", async () => {
    const origin = await listen(Effect.gen(function*() {
      const request = yield* HttpServerRequest.HttpServerRequest
      const moved = request.modify({ url: "/elsewhere" })
      const first = yield* moved.text
      const again = yield* request.json
      // The platform's public helper finds the node request underneath.
      const source = NodeHttpServerRequest.toIncomingMessage(request)
      return HttpServerResponse.unsafeJson({ first, again, url: moved.url, original: moved.originalUrl, method: source.method })
    }))
    const answer = await fetch(`${origin}/here`, { method: "POST", body: "{\"x\":1}" })
    expect(await answer.json()).toEqual({ first: "{\"x\":1}", again: { x: 1 }, url: "/elsewhere", original: "/here", method: "POST" })
  })

  it("answers a failure the app did not answer, a defect and a failing pre-response handler with onFailure", async () => {
    const origin = await listen(byPath({
      "/fails": Effect.fail("no"),
      "/dies": Effect.dieMessage("boom"),
      "/late": Effect.zipRight(
        HttpApp.appendPreResponseHandler(() => Effect.die("late")),
        Effect.succeed(HttpServerResponse.empty())
      )
    }))
    for (const path of ["/fails", "/dies", "/late"]) {
      const answer = await fetch(`${origin}${path}`)
      expect([answer.status, await answer.json()]).toEqual([500, { failed: path }])
    }
  })

  it("interrupts the request's fiber when its client disconnects: the app runs interruptibly unless it says otherwise", async () => {
    const started = Effect.runSync(Deferred.make<void>())
    const interrupted = Effect.runSync(Deferred.make<void>())
    // No interruptible region of its own: the request's fiber is interruptible throughout.
    const origin = await listen(
      Effect.zipRight(Deferred.succeed(started, undefined), Effect.never).pipe(
        Effect.onInterrupt(() => Deferred.succeed(interrupted, undefined))
      )
    )
    const client = new AbortController()
    const answered = fetch(origin, { signal: client.signal }).catch(() => "aborted")
    await Effect.runPromise(Deferred.await(started))
    client.abort()
    expect(await answered).toBe("aborted")
    await Effect.runPromise(Deferred.await(interrupted).pipe(Effect.timeout("10 seconds")))
  })
})
