/**
 * The rate-limit gate inside a request (`RateLimit.admit`): the decision is recorded in the
 * request's facts (counted, and the v2 `RateLimit` field for its answer, whatever it is), not
 * set on the fiber and added by a pre-response handler; a refusal still carries the field.
 */
import { HttpApp, HttpServerRequest } from "@effect/platform"
import { RateLimitRepo, type Identity } from "@costline/core"
import { Effect, Exit, Layer, Option } from "effect"
import { describe, expect, it } from "vitest"
import * as RateLimit from "../../src/middleware/RateLimit.js"
import * as RequestFiber from "../../src/routing/RequestFiber.js"

const principal = { _tag: "ApiKey", keyId: "key-1", organizationId: "org-1" } as unknown as Identity.Principal
const gate = RateLimit.layer({ requestsPerSecond: 1, burst: 2 }).pipe(Layer.provide(RateLimitRepo.layerMemory))

const admitIn = (url: string, times: number) => {
  const facts = RequestFiber.newFacts()
  const request = HttpServerRequest.fromWeb(new Request(`http://localhost${url}`))
  return Effect.gen(function*() {
    const { admit } = yield* RateLimit.RateLimitGate
    const exits = []
    for (let i = 0; i < times; i++) exits.push(yield* Effect.exit(admit(principal)))
    const handler = yield* Effect.withFiberRuntime<Option.Option<HttpApp.PreResponseHandler>>((fiber) =>
      Effect.succeed(fiber.getFiberRef(HttpApp.currentPreResponseHandlers))
    )
    return { exits, facts, handler }
  }).pipe(
    Effect.provideService(RequestFiber.RequestFacts, facts),
    Effect.provideService(HttpServerRequest.HttpServerRequest, request),
    Effect.provide(gate),
    Effect.runPromise
  )
}

describe("RateLimit.admit", () => {
  it("records a v2 request as counted, with its decision for the answer, and appends no pre-response handler", async () => {
    const { exits, facts, handler } = await admitIn("/v2/teams", 1)
    expect(Exit.isSuccess(exits[0]!)).toBe(true)
    expect(facts.counted).toBe(true)
    expect(facts.headers).toEqual({ [RateLimit.HEADER]: "\"default\";r=1;t=1" })
    expect(Option.isNone(handler)).toBe(true)
  })

  it("records the decision of a refused request too", async () => {
    const { exits, facts } = await admitIn("/v2/teams", 3)
    expect(exits.map(Exit.isSuccess)).toEqual([true, true, false])
    expect(facts.headers?.[RateLimit.HEADER]).toMatch(/^"default";r=0;t=\d+$/)
  })

  it("counts a v1 request without the v2 field", async () => {
    const { facts } = await admitIn("/api/organizations/org-1/teams", 1)
    expect(facts.counted).toBe(true)
    expect(facts.headers).toBeNull()
  })
})
