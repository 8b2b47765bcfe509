/**
 * Headers a handler gives its answer (`Respond.setHeaders`): recorded in the request's facts when
 * it runs inside a request (the pipeline sets them on the answer), and added by a pre-response
 * handler, as before, when there are no facts to record them in.
 */
import { HttpApp, HttpServerResponse } from "@effect/platform"
import type { HttpServerRequest } from "@effect/platform"
import { Effect, Option } from "effect"
import { describe, expect, it } from "vitest"
import * as Respond from "../../src/api/Respond.js"
import * as RequestFiber from "../../src/routing/RequestFiber.js"

const preResponseHandler = Effect.withFiberRuntime<Option.Option<HttpApp.PreResponseHandler>>((fiber) =>
  Effect.succeed(fiber.getFiberRef(HttpApp.currentPreResponseHandlers))
)

describe("Respond.setHeaders", () => {
  it("records the headers in the request's facts, later ones over earlier, and appends no pre-response handler", async () => {
    const facts = RequestFiber.newFacts()
    const handler = await Effect.runPromise(
      Effect.zipRight(
        Effect.all([Respond.setHeaders({ etag: "\"v1\"", location: "/a" }), Respond.setHeaders({ etag: "\"v2\"" })]),
        preResponseHandler
      ).pipe(Effect.provideService(RequestFiber.RequestFacts, facts))
    )
    expect(facts.headers).toEqual({ etag: "\"v2\"", location: "/a" })
    expect(Option.isNone(handler)).toBe(true)
  })

  it("starts a request's facts without headers, whatever the fiber's request before recorded", () => {
    const facts = { ...RequestFiber.newFacts(), headers: { etag: "\"old\"" } }
    const fiber = { currentContext: { unsafeMap: new Map([[RequestFiber.RequestFacts.key, facts]]) } } as unknown as RequestFiber.AnyFiber
    const [begun] = RequestFiber.begin(fiber, "r-2")
    expect(begun).toBe(facts)
    expect(begun).toMatchObject({ requestId: "r-2", tenant: null, headers: null })
  })

  it("outside a request, adds them to the answer by a pre-response handler", async () => {
    const handler = await Effect.runPromise(Effect.zipRight(Respond.setHeaders({ "cache-control": "no-store" }), preResponseHandler))
    expect(Option.isSome(handler)).toBe(true)
    const answered = await Effect.runPromise(
      Option.getOrThrow(handler)({} as HttpServerRequest.HttpServerRequest, HttpServerResponse.empty({ status: 204 }))
    )
    expect(answered.headers["cache-control"]).toBe("no-store")
  })
})
