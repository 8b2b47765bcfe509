/**
 * A node request's body, read once and kept: every reader gets the one outcome, a reader that
 * leaves (timed out, interrupted) leaves the read running, and the read ends on a bound, a
 * failure or a close. Streams stand in for the `IncomingMessage` (the same events).
 */
import { HttpServerError } from "@effect/platform"
import { Cause, Effect, Exit, Fiber } from "effect"
import type { IncomingMessage } from "node:http"
import { PassThrough } from "node:stream"
import { describe, expect, it } from "vitest"
import { NodeBody } from "../../src/routing/NodeBody.js"

const onError = (cause: unknown) => new HttpServerError.RequestError({ request: undefined as never, reason: "Decode", cause })
const bodyOf = () => {
  const stream = new PassThrough()
  return { stream, body: new NodeBody(stream as unknown as IncomingMessage, onError) }
}
const run = <A, E>(effect: Effect.Effect<A, E>) => Effect.runPromiseExit(effect)
const causeMessage = <A>(exit: Exit.Exit<A, HttpServerError.RequestError>) =>
  Exit.isFailure(exit) ? String((Cause.squash(exit.cause) as HttpServerError.RequestError).cause) : "succeeded"

describe("NodeBody", () => {
  it("reads the body once: every reader, during and after, gets the same text, multi-byte characters across chunks kept whole", async () => {
    const { body, stream } = bodyOf()
    const first = run(body.read(undefined))
    const second = run(body.read(undefined))
    const bytes = Buffer.from("{\"name\":\"é😀\"}")
    // Cut inside the emoji's four bytes.
    stream.write(bytes.subarray(0, 11))
    stream.end(bytes.subarray(11))
    expect(await first).toEqual(Exit.succeed("{\"name\":\"é😀\"}"))
    expect(await second).toEqual(Exit.succeed("{\"name\":\"é😀\"}"))
    // Kept: answered without another read, as the outcome itself.
    expect(body.outcome).toEqual(Exit.succeed("{\"name\":\"é😀\"}"))
    expect(body.read(undefined)).toBe(body.outcome)
    expect(stream.listenerCount("data")).toBe(0)
  })

  it("an empty body is the empty text", async () => {
    const { body, stream } = bodyOf()
    const read = run(body.read(undefined))
    stream.end()
    expect(await read).toEqual(Exit.succeed(""))
  })

  it("a body past the first reader's bound fails every reader and destroys the stream", async () => {
    const { body, stream } = bodyOf()
    const read = run(body.read(4))
    stream.write("12345")
    const exit = await read
    expect(causeMessage(exit)).toContain("maxBytes exceeded")
    expect(stream.destroyed).toBe(true)
    expect(causeMessage(await run(body.read(4)))).toContain("maxBytes exceeded")
  })

  it("a stream that fails or closes before its end fails the read", async () => {
    const failing = bodyOf()
    const failed = run(failing.body.read(undefined))
    failing.stream.destroy(new Error("aborted"))
    expect(causeMessage(await failed)).toContain("aborted")

    const closing = bodyOf()
    const closed = run(closing.body.read(undefined))
    closing.stream.write("{")
    closing.stream.destroy()
    expect(causeMessage(await closed)).toContain("closed before its body ended")
  })

  it("a stream already read fails the read instead of waiting for an end that will not come", async () => {
    const { body, stream } = bodyOf()
    stream.resume()
    stream.end()
    await new Promise((resolve) => stream.once("end", resolve))
    expect(causeMessage(await run(body.read(undefined)))).toContain("read already")
  })

  it("settledWithin: succeeds once the body is in, whatever its outcome; a later read reports it", async () => {
    const { body, stream } = bodyOf()
    const settled = run(body.settledWithin(undefined, 60_000, () => "timeout"))
    stream.end("{}")
    expect(await settled).toEqual(Exit.void)
    expect(await run(body.read(undefined))).toEqual(Exit.succeed("{}"))

    const failing = bodyOf()
    const failedSettle = run(failing.body.settledWithin(2, 60_000, () => "timeout"))
    failing.stream.write("123")
    expect(await failedSettle).toEqual(Exit.void)
    expect(causeMessage(await run(failing.body.read(2)))).toContain("maxBytes exceeded")
  })

  it("settledWithin: past its deadline it fails, and the read goes on for whoever reads next", async () => {
    const { body, stream } = bodyOf()
    stream.write("{\"a\":")
    const timedOut = await run(body.settledWithin(undefined, 1, () => "timeout"))
    expect(timedOut).toEqual(Exit.fail("timeout"))
    // The stream is not destroyed, and the read still listens: the rest arrives later.
    expect(stream.destroyed).toBe(false)
    const later = run(body.read(undefined))
    stream.end("1}")
    expect(await later).toEqual(Exit.succeed("{\"a\":1}"))
  })

  it("a reader interrupted while it waits leaves the read running for the others", async () => {
    const { body, stream } = bodyOf()
    const interrupted = Effect.runFork(body.read(undefined))
    const other = run(body.read(undefined))
    await Effect.runPromise(Fiber.interrupt(interrupted))
    stream.end("[1]")
    expect(await other).toEqual(Exit.succeed("[1]"))
    expect(stream.destroyed || stream.readableEnded).toBe(true)
  })
})
