/**
 * The anonymous tenant middleware (see `Visitor.ts`). Apart from the tag, so that the API's
 * definition never loads the middlewares, which read the whole API when they are built.
 */
import type { Ids } from "@costline/core"
import { Effect, Layer } from "effect"
import { AuthFailureGate } from "../../middleware/AuthFailureLimit.js"
import * as AccessLog from "../../middleware/AccessLog.js"
import { tenantFromHeader } from "../../middleware/Authentication.js"
import * as DeclaredInput from "../../middleware/DeclaredInput.js"
import * as RequestFiber from "../../routing/RequestFiber.js"
import { CostlineApi } from "../Api.js"
import { AnonymousTenant, Visitor } from "./Visitor.js"

export const make = Effect.gen(function*() {
  const failures = yield* AuthFailureGate
  const declaredInput = DeclaredInput.make(CostlineApi)
  return Effect.gen(function*() {
    // An address that spent its failures is refused before anything is looked up.
    yield* failures.check
    const tenant = yield* tenantFromHeader
    const facts = yield* Effect.withFiberRuntime<RequestFiber.Facts>((fiber) => {
      AccessLog.recordTenant(fiber, tenant)
      return Effect.succeed(RequestFiber.factsOf(fiber))
    })
    yield* declaredInput
    return Visitor.of({ organizationId: tenant as Ids.OrganizationId, requestId: facts.requestId })
  })
})

export const AnonymousTenantLive = Layer.effect(AnonymousTenant, make)
