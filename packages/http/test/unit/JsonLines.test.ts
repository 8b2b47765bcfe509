import { Cause, Context, Effect, FiberId, FiberRef, FiberRefs, HashMap, List, Logger, LogLevel, LogSpan } from "effect"
import { describe, expect, it, vi } from "vitest"
import * as JsonLines from "../../src/logging/JsonLines.js"
import * as RequestFiber from "../../src/routing/RequestFiber.js"

const { makeBatcher } = JsonLines

/** A batcher whose scheduled flush is run by hand. */
const manual = () => {
  const writes: Array<string> = []
  let turn: (() => void) | undefined
  const batcher = makeBatcher((chunk) => writes.push(chunk), (flush) => (turn = flush))
  return { writes, batcher, nextTurn: () => turn?.() }
}

describe("JSON lines logger batching", () => {
  it("writes every line of a batch in one write, each ending in a newline", () => {
    const { batcher, nextTurn, writes } = manual()
    batcher.push(`{"n":1}`)
    batcher.push(`{"n":2}`)
    expect(writes).toEqual([])
    nextTurn()
    expect(writes).toEqual([`{"n":1}\n{"n":2}\n`])
  })

  it("starts a new batch after a write and writes nothing for an empty one", () => {
    const { batcher, nextTurn, writes } = manual()
    batcher.push("a")
    nextTurn()
    nextTurn()
    batcher.push("b")
    nextTurn()
    expect(writes).toEqual(["a\n", "b\n"])
  })

  it("writes a batch FLUSH_DELAY_MS after its first line, not at every turn of the event loop", async () => {
    vi.useFakeTimers()
    try {
      const writes: Array<string> = []
      const batcher = makeBatcher((chunk) => writes.push(chunk))
      batcher.push("a")
      await vi.advanceTimersByTimeAsync(JsonLines.FLUSH_DELAY_MS - 1)
      batcher.push("b")
      expect(writes).toEqual([])
      await vi.advanceTimersByTimeAsync(1)
      expect(writes).toEqual(["a\nb\n"])
    } finally {
      vi.useRealTimers()
    }
  })

  it("writes at once when FLUSH_BYTES are pending, so a burst never piles up in memory", () => {
    const { batcher, nextTurn, writes } = manual()
    const line = "x".repeat(1_023)
    const perBatch = JsonLines.FLUSH_BYTES / (line.length + 1)
    for (let i = 0; i < perBatch - 1; i++) batcher.push(line)
    expect(writes).toEqual([])
    batcher.push(line)
    expect(writes).toHaveLength(1)
    expect(writes[0]!.split("\n")).toHaveLength(perBatch + 1)
    batcher.push("next")
    nextTurn()
    expect(writes).toEqual([writes[0], "next\n"])
  })

  it("flush writes what is pending at once (scope close, process exit)", () => {
    const { batcher, writes } = manual()
    batcher.push("last words")
    batcher.flush()
    expect(writes).toEqual(["last words\n"])
  })
})

describe("JSON lines logger redaction", () => {
  it("no line carries a secret: secret fields of messages and annotations, PEM keys in causes", async () => {
    const written: Array<string> = []
    const spy = vi.spyOn(process.stdout, "write").mockImplementation((chunk) => {
      written.push(String(chunk))
      return true
    })
    const pem = "-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC\n-----END PRIVATE KEY-----"
    try {
      await Effect.gen(function*() {
        yield* Effect.logInfo({ account: "a1", credentials: { private_key: pem, private_key_passphrase: "PASS-4242" } })
        yield* Effect.logWarning("refused").pipe(Effect.annotateLogs({ api_token: "TOKEN-8181", tenant: "acme" }))
        yield* Effect.logError("request failed unexpectedly", new Error(`could not parse ${pem}`))
      }).pipe(Effect.provide(JsonLines.layer), Effect.runPromise)
    } finally {
      spy.mockRestore()
    }
    const lines = written.join("").trim().split("\n").map((line) => JSON.parse(line))
    expect(lines).toHaveLength(3)
    const text = written.join("")
    for (const secret of ["PRIVATE KEY", "MIIEvQ", "PASS-4242", "TOKEN-8181"]) expect(text).not.toContain(secret)
    expect(lines[0].message).toEqual({ account: "a1", credentials: { private_key: "[redacted]", private_key_passphrase: "[redacted]" } })
    expect(lines[1].annotations).toEqual({ api_token: "[redacted]", tenant: "acme" })
    expect(JSON.stringify(lines[2])).toContain("could not parse [redacted]")
  })
})

describe("JSON lines of flat entries", () => {
  const entry = (
    message: unknown,
    annotations: Record<string, unknown>,
    cause: Cause.Cause<unknown> = Cause.empty,
    context: FiberRefs.FiberRefs = FiberRefs.empty()
  ) => ({
    fiberId: FiberId.make(7, 0),
    logLevel: LogLevel.Info,
    message,
    cause,
    context,
    spans: List.make(LogSpan.make("served", 1_000)),
    annotations: HashMap.fromIterable(Object.entries(annotations)),
    date: new Date(1_250)
  })
  /** What Effect's JSON logger writes for the entry. */
  const general = (options: ReturnType<typeof entry>) => Logger.jsonLogger.log(options)

  it("an entry of text with flat annotations (the access log's) is the line Effect's JSON logger writes", () => {
    const access = entry(["request served"], {
      request_id: "r-1",
      method: "GET",
      route: "/v2/insights/:insight_id",
      status: 200,
      duration_ms: 3,
      tenant: null,
      ok: true
    })
    expect(JSON.parse(JsonLines.formatLine(access))).toEqual(JSON.parse(general(access)))
    expect(JsonLines.formatLine(access)).toBe(general(access))
    const twoParts = entry(["one", "two"], { n: 1 })
    expect(JsonLines.formatLine(twoParts)).toBe(general(twoParts))
  })

  it("a flat entry still has its secret annotations redacted and PEM keys cut out", () => {
    const pem = "-----BEGIN PRIVATE KEY-----\nMIIEvQ\n-----END PRIVATE KEY-----"
    const line = JsonLines.formatLine(entry(["refused"], { api_token: "TOKEN-8181", note: pem, tenant: "acme" }))
    expect(line).not.toContain("TOKEN-8181")
    expect(line).not.toContain("MIIEvQ")
    expect(JSON.parse(line).annotations).toEqual({ api_token: "[redacted]", note: "[redacted]", tenant: "acme" })
    // The rule's answer per key is kept: the same entry again is redacted the same.
    expect(JsonLines.formatLine(entry(["refused"], { api_token: "TOKEN-8181", tenant: "acme" }))).not.toContain("TOKEN-8181")
  })

  it("an entry logged by a request carries its id from the request's facts, unless it is annotated with one", () => {
    // The fiber's context as a request's: its facts record the id the pipeline gave it.
    const facts = { ...RequestFiber.newFacts(), requestId: "r-facts" }
    const inRequest = FiberRefs.updateAs(FiberRefs.empty(), {
      fiberId: FiberId.none,
      fiberRef: FiberRef.currentContext,
      value: Context.make(RequestFiber.RequestFacts, facts)
    })
    const flat = JSON.parse(JsonLines.formatLine(entry(["request served"], { status: 200 }, Cause.empty, inRequest)))
    expect(flat.annotations).toEqual({ request_id: "r-facts", status: 200 })
    // As if annotated first: the same line Effect's JSON logger writes with the annotation.
    expect(JsonLines.formatLine(entry(["request served"], { status: 200 }, Cause.empty, inRequest)))
      .toBe(general(entry(["request served"], { request_id: "r-facts", status: 200 })))
    const failed = JSON.parse(JsonLines.formatLine(entry(["request failed"], { detail: { a: 1 } }, Cause.fail("boom"), inRequest)))
    expect(failed.annotations).toEqual({ request_id: "r-facts", detail: { a: 1 } })
    const annotated = JSON.parse(JsonLines.formatLine(entry(["x"], { request_id: "r-own" }, Cause.empty, inRequest)))
    expect(annotated.annotations).toEqual({ request_id: "r-own" })
    // Outside a request (no facts), nothing is added.
    expect(JSON.parse(JsonLines.formatLine(entry(["started"], {}))).annotations).toEqual({})
  })

  it("entries that are not flat (objects, causes) are written as before", () => {
    const nested = entry(["request failed"], { detail: { password: "hunter2" } }, Cause.fail("boom"))
    const line = JSON.parse(JsonLines.formatLine(nested))
    expect(line.annotations).toEqual({ detail: { password: "[redacted]" } })
    expect(line.cause).toContain("boom")
  })
})
