/**
 * The access log's entry, written in the step that observes the answer: to every logger as
 * `Effect.annotateLogs(fields)` + `Effect.logInfo` would give it, and, when costline's JSON lines
 * are the one logger, as the very line that logger writes for it.
 */
import { HttpServerResponse } from "@effect/platform"
import type { HttpServerRequest } from "@effect/platform"
import { Effect, HashMap, Layer, List, Logger, LogLevel } from "effect"
import { afterEach, describe, expect, it, vi } from "vitest"
import * as JsonLines from "../../src/logging/JsonLines.js"
import * as AccessLog from "../../src/middleware/AccessLog.js"
import * as RequestFiber from "../../src/routing/RequestFiber.js"

const request = { method: "PATCH" } as HttpServerRequest.HttpServerRequest
const response = HttpServerResponse.empty({ status: 204 })
const FIELDS = { method: "PATCH", route: "/v2/insights/:insight_id", status: 204, duration_ms: 7, tenant: "acme" }

/** The access log's entry through `AccessLog.log`, on the current fiber, with the tenant recorded in the request's facts. */
const direct = Effect.withFiberRuntime<void>((fiber) =>
  Effect.sync(() => {
    AccessLog.recordTenant(fiber, "acme")
    AccessLog.log(fiber, FIELDS.route, request, response, 7)
  })
).pipe(Effect.provideService(RequestFiber.RequestFacts, RequestFiber.newFacts()))
/** The same entry as two effects would log it. */
const general = Effect.logInfo(AccessLog.MESSAGE).pipe(Effect.annotateLogs(FIELDS))

/** Lines written to stdout while `effect` runs with `layer` (the JSON lines logger flushes when it closes). */
const linesOf = async (effect: Effect.Effect<void>, layer: Layer.Layer<never>) => {
  const written: Array<string> = []
  const spy = vi.spyOn(process.stdout, "write").mockImplementation((chunk: string | Uint8Array) => {
    written.push(String(chunk))
    return true
  })
  try {
    await Effect.runPromise(effect.pipe(Effect.annotateLogs({ request_id: "r-1", api_token: "TOKEN-8181" }), Effect.provide(layer)))
  } finally {
    spy.mockRestore()
  }
  return written.join("").split("\n").filter((line) => line.length > 0).map((line) => JSON.parse(line))
}

/** The server's logging with tracing off: the JSON lines logger alone. */
const serverLogging = Layer.merge(JsonLines.layer, Logger.remove(Logger.tracerLogger))

describe("the access log's entry", () => {
  afterEach(() => vi.restoreAllMocks())

  it("with costline's JSON lines as the one logger, is the line that logger writes for it (secrets redacted)", async () => {
    const [written] = await linesOf(direct, serverLogging)
    const [expected] = await linesOf(general, serverLogging)
    const comparable = (line: Record<string, unknown>) => ({ ...line, timestamp: undefined, fiberId: undefined })
    expect(comparable(written)).toEqual(comparable(expected))
    expect(written.message).toBe("request served")
    expect(written.annotations).toEqual({ request_id: "r-1", api_token: "[redacted]", ...FIELDS })
  })

  it("with another logger too, every logger receives it with the fields among its annotations", async () => {
    const received: Array<Logger.Logger.Options<unknown>> = []
    const seen = Logger.add(Logger.make((options) => void received.push(options)))
    const lines = await linesOf(direct, Layer.merge(serverLogging, seen))
    expect(lines.map((line) => line.annotations)).toEqual([{ request_id: "r-1", api_token: "[redacted]", ...FIELDS }])
    expect(received).toHaveLength(1)
    const [entry] = received
    expect(entry!.message).toEqual([AccessLog.MESSAGE])
    expect(entry!.logLevel).toBe(LogLevel.Info)
    expect(Object.fromEntries(HashMap.toEntries(entry!.annotations))).toEqual({ request_id: "r-1", api_token: "TOKEN-8181", ...FIELDS })
    expect(List.isList(entry!.spans)).toBe(true)
  })

  it("is not written below the minimum level", async () => {
    expect(await linesOf(direct, Layer.merge(serverLogging, Logger.minimumLogLevel(LogLevel.Warning)))).toEqual([])
  })
})
