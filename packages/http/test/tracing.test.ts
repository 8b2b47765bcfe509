/**
 * Spans are opt-in: without `tracing: true` a request creates none (neither the server's span nor
 * the SQL statements'); with it, the runtime's tracer receives both.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer, Tracer } from "effect"
import { call, makeTestServer, seedTenant } from "./support/TestServer.js"

/** The runtime's tracer, remembering the name of every span it is asked for. */
const recordingTracer = () => {
  const names: Array<string> = []
  const layer = Layer.unwrapEffect(Effect.map(Effect.tracer, (native) =>
    Layer.setTracer(Tracer.make({
      span: (name, ...rest) => {
        names.push(name)
        return native.span(name, ...rest)
      },
      context: native.context
    }))))
  return { names, layer }
}

const spansOfOneRequest = (tracing: boolean | undefined) => {
  const recorder = recordingTracer()
  return Effect.gen(function*() {
    const tenant = yield* seedTenant
    recorder.names.length = 0
    const reply = yield* call("GET", "/v2/audit-logs", { token: tenant.adminKey, tenant: tenant.id })
    expect(reply.status).toBe(200)
    return [...recorder.names]
  }).pipe(
    Effect.provide(makeTestServer(tracing === undefined ? {} : { tracing })),
    Effect.provide(recorder.layer)
  )
}

describe("tracing", () => {
  it.live("is off by default: a request creates no span", () =>
    Effect.map(spansOfOneRequest(undefined), (names) => expect(names).toEqual([])))

  it.live("tracing: true gives the server's span and each SQL statement's", () =>
    Effect.map(spansOfOneRequest(true), (names) => {
      expect(names.some((name) => name.startsWith("http.server"))).toBe(true)
      expect(names).toContain("sql.execute")
    }))
})

