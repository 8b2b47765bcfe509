/** The access policy on its own: what it reads from an API definition and how it enforces it. */
import { HttpApi, HttpApiEndpoint, HttpApiGroup, HttpApiSchema, HttpRouter, HttpServerRequest } from "@effect/platform"
import { Authorization, Errors } from "@costline/core"
import type { Audit, Identity, Ids } from "@costline/core"
import { describe, expect, it } from "@effect/vitest"
import { Cause, Effect, Exit, Layer, Option, Ref, Schema } from "effect"
import { Access, Requires } from "../../src/api/Access.js"
import * as AccessPolicy from "../../src/middleware/AccessPolicy.js"

const TeamIdParam = HttpApiSchema.param("team_id", Schema.String)

class TestApi extends HttpApi.make("test").add(
  HttpApiGroup.make("things")
    .add(HttpApiEndpoint.get("readThing", "/things").annotate(Requires, Access.read("teams")))
    .add(
      HttpApiEndpoint.patch("renameThing")`/things/${TeamIdParam}`
        .annotate(Requires, Access.write("teams", { target: { resource: "teams" }, table_name: "teams", operation: "update", recordIdParam: "team_id" }))
        .setPayload(Schema.Struct({ name: Schema.String, size: Schema.optionalWith(Schema.Number, { default: () => 1 }) }))
    )
    .add(HttpApiEndpoint.del("forgotten", "/forgotten"))
) {}

const viewer: Identity.Principal = {
  _tag: "User",
  organizationId: "org-1" as Ids.OrganizationId,
  userId: "00000000-0000-4000-8000-000000000001" as Ids.UserId,
  email: "viewer@example.com",
  sessionId: "00000000-0000-4000-8000-000000000002" as Ids.SessionId,
  roles: ["viewer"]
}

/** Authorization as core's: refuses, and remembers the attempt it would audit. */
const recordingAuthorization = (attempts: Ref.Ref<ReadonlyArray<Audit.AuditEntry | undefined>>) =>
  Layer.succeed(Authorization.Authorization, Authorization.Authorization.of({
    require: (_principal, permission, attempted) =>
      Ref.update(attempts, (all) => [...all, attempted?.entry]).pipe(
        Effect.zipRight(Effect.fail(new Errors.Forbidden({ message: `not allowed to ${permission.action} ${permission.area}` })))
      )
  }))

/** Runs the policy as the router would for a request to `method path` with `params` and `body`. */
const enforce = (method: "GET" | "PATCH" | "DELETE", path: string, params: Record<string, string>, body?: string) =>
  Effect.gen(function*() {
    const attempts = yield* Ref.make<ReadonlyArray<Audit.AuditEntry | undefined>>([])
    const requirePermission = yield* AccessPolicy.make(TestApi).pipe(Effect.provide(recordingAuthorization(attempts)))
    const route = HttpRouter.makeRoute(method, path as HttpRouter.PathInput, Effect.die("unused"))
    const request = HttpServerRequest.fromWeb(
      new Request(`http://localhost${path}`, { method, ...(body === undefined ? {} : { body, headers: { "content-type": "application/json" } }) })
    )
    const exit = yield* requirePermission(viewer, "request-1").pipe(
      Effect.provideService(HttpRouter.RouteContext, { [HttpRouter.RouteContextTypeId]: HttpRouter.RouteContextTypeId, params, route }),
      Effect.provideService(HttpServerRequest.HttpServerRequest, request),
      Effect.exit
    )
    return { exit, attempts: yield* Ref.get(attempts) }
  })

describe("AccessPolicy", () => {
  it("reads each endpoint's own declaration, and knows the ones without", () => {
    const routes = AccessPolicy.declaredRoutes(TestApi)
    expect(routes.map((route) => [route.method, route.path, Option.isSome(route.access)])).toEqual([
      ["GET", "/things", true],
      ["PATCH", "/things/:team_id", true],
      ["DELETE", "/forgotten", false]
    ])
  })

  it.effect("a route that declares no permission is never served: it is a defect, whoever calls", () =>
    Effect.gen(function*() {
      const { attempts, exit } = yield* enforce("DELETE", "/forgotten", {})
      expect(Exit.isFailure(exit) && Cause.isDie(exit.cause)).toBe(true)
      expect(attempts).toEqual([])
    }))

  it.effect("an allowed call passes without consulting the audit", () =>
    Effect.gen(function*() {
      const { attempts, exit } = yield* enforce("GET", "/things", {})
      expect(exit).toEqual(Exit.void)
      expect(attempts).toEqual([])
    }))

  it.effect("a refused change is audited with the record it named and the valid body it carried, in canonical form", () =>
    Effect.gen(function*() {
      const { attempts, exit } = yield* enforce("PATCH", "/things/:team_id", { team_id: "t-1" }, JSON.stringify({ name: "x", junk: true }))
      expect(Exit.isFailure(exit)).toBe(true)
      expect(attempts).toEqual([{
        target: { resource: "teams" },
        table_name: "teams",
        operation: "update",
        record_id: "t-1",
        new_values: { team_id: "t-1", name: "x", size: 1 }
      }])
    }))

  it.effect("a body that is not valid for the endpoint is left out of the record; the path still names the record", () =>
    Effect.gen(function*() {
      for (const body of ["{", JSON.stringify({ name: 5 }), JSON.stringify([1])]) {
        const { attempts } = yield* enforce("PATCH", "/things/:team_id", { team_id: "t-2" }, body)
        expect(attempts).toEqual([expect.objectContaining({ record_id: "t-2", new_values: { team_id: "t-2" } })])
      }
    }))
})
