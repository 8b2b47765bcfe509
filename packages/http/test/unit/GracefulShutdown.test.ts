/**
 * The drain on shutdown: a request still running when the drain timeout passes is cut off, and
 * the shutdown goes on (its scope closes), rather than waiting for that request to end.
 */
import { it } from "@effect/vitest"
import { Effect, Exit, Layer, Scope } from "effect"
import type { AddressInfo } from "node:net"
import { connect } from "node:net"
import { expect } from "vitest"
import * as GracefulShutdown from "../../src/GracefulShutdown.js"

it.live("a request never answered holds the shutdown only until the drain timeout, then loses its connection", () =>
  Effect.gen(function*() {
    const drainable = GracefulShutdown.make("50 millis")
    const server = drainable.createServer()
    let arrive = () => {}
    const arrived = new Promise<void>((resolve) => (arrive = resolve))
    // Received, never answered.
    server.on("request", () => arrive())
    yield* Effect.promise(() => new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve)))
    const { port } = server.address() as AddressInfo
    const socket = connect(port, "127.0.0.1", () => socket.write("GET / HTTP/1.1\r\nhost: x\r\n\r\n"))
    socket.on("error", () => {})
    const closed = new Promise<void>((resolve) => socket.on("close", () => resolve()))
    yield* Effect.promise(() => arrived)

    const scope = yield* Scope.make()
    yield* Layer.buildWithScope(drainable.layer, scope)
    // Closing the scope runs the drain as a finalizer, uninterruptibly.
    yield* Scope.close(scope, Exit.void)
    yield* Effect.promise(() => closed)
    expect(server.listening).toBe(false)
  }))
