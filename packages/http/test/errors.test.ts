/**
 * Requests the API cannot serve, through the real server: unknown routes, wrong methods, bodies
 * that are too large, not JSON or not there, and failures of the store underneath.
 */
import { Errors, TeamsRepo } from "@costline/core"
import { SqliteStore } from "@costline/store-sqlite"
import { layer } from "@effect/vitest"
import { Cause, Effect, Layer, Logger } from "effect"
import { expect } from "vitest"
import { baseUrl, call, makeTestServer, seedTenant } from "./support/TestServer.js"

const LIMIT = 2048

layer(makeTestServer({ maxBodyBytes: LIMIT }), { excludeTestServices: true })("requests the API rejects", (it) => {
  it.effect("an unknown route is a 404 in the caller's version", () =>
    Effect.gen(function*() {
      const v2 = yield* call("GET", "/v2/nothing-here?x=1")
      expect(v2.status).toBe(404)
      expect(v2.headers.get("content-type")).toBe("application/problem+json")
      expect(v2.body).toMatchObject({ code: "not_found", detail: "no route for GET /v2/nothing-here" })

      const v1 = yield* call("GET", "/api/org/nothing-here")
      expect(v1.status).toBe(404)
      expect(v1.body).toEqual({ detail: "no route for GET /api/org/nothing-here" })
      expect(v1.headers.get("deprecation")).not.toBeNull()
      expect(v1.headers.get("link")).toBeNull()
    }))

  it.effect("a known path with another method is a 405 listing the allowed methods", () =>
    Effect.gen(function*() {
      const audit = yield* call("DELETE", "/v2/audit-logs")
      expect(audit.status).toBe(405)
      expect(audit.headers.get("allow")).toBe("GET, HEAD")
      expect(audit.body).toMatchObject({ code: "method_not_allowed", status: 405 })

      const teams = yield* call("GET", "/v2/teams")
      expect(teams.status).toBe(405)
      expect(teams.headers.get("allow")).toBe("POST")
      // Only at the path's one spelling (request-edges.test.ts): elsewhere there is no such path.
      expect((yield* call("GET", "/V2/Teams/")).status).toBe(404)

      const v1 = yield* call("PUT", "/api/some-org/teams")
      expect(v1.status).toBe(405)
      expect(v1.headers.get("allow")).toBe("POST")
      expect(v1.body).toEqual({ detail: "PUT is not allowed here; use POST" })
    }))

  it.effect("malformed JSON is a 400, in both versions", () =>
    Effect.gen(function*() {
      const tenant = yield* seedTenant
      const headers = { "content-type": "application/json" }
      const v2 = yield* call("POST", "/v2/teams", { token: tenant.adminKey, tenant: tenant.id, headers, body: "{\"name\":" })
      expect(v2.status).toBe(400)
      expect(v2.body).toMatchObject({ code: "bad_request", detail: "the request body is not valid JSON" })

      const v1 = yield* call("POST", `/api/${tenant.id}/teams`, { token: tenant.adminKey, headers, body: "{oops}" })
      expect(v1.status).toBe(400)
      expect(v1.body).toEqual({ detail: "the request body is not valid JSON" })
    }))

  it.effect("a missing body is a 422 for the body as a whole", () =>
    Effect.gen(function*() {
      const tenant = yield* seedTenant
      const v2 = yield* call("POST", "/v2/teams", { token: tenant.adminKey, tenant: tenant.id })
      expect(v2.status).toBe(422)
      expect(v2.body.details).toEqual([{ field: "body", issue: "missing", message: "a JSON request body is required" }])

      const v1 = yield* call("POST", `/api/${tenant.id}/teams`, { token: tenant.adminKey })
      expect(v1.status).toBe(422)
      expect(v1.body).toEqual({
        detail: [{ type: "missing", loc: ["body"], msg: "a JSON request body is required", input: null, url: "https://errors.pydantic.dev/2.10/v/missing" }]
      })
    }))

  it.effect("JSON that is not an object is a 422 for the body", () =>
    Effect.gen(function*() {
      const tenant = yield* seedTenant
      const reply = yield* call("POST", "/v2/teams", { token: tenant.adminKey, tenant: tenant.id, json: ["name"] })
      expect(reply.status).toBe(422)
      expect(reply.body.details).toMatchObject([{ field: "body", issue: "invalid_type" }])
    }))

  it.effect("a body that is not JSON is a 415", () =>
    Effect.gen(function*() {
      const tenant = yield* seedTenant
      const reply = yield* call("POST", "/v2/teams", {
        token: tenant.adminKey,
        tenant: tenant.id,
        headers: { "content-type": "text/plain" },
        body: "name=x"
      })
      expect(reply.status).toBe(415)
      expect(reply.body.code).toBe("unsupported_media_type")
    }))

  it.effect("a body over the limit is a 413, whether announced or streamed", () =>
    Effect.gen(function*() {
      const tenant = yield* seedTenant
      // Unknown fields are ignored, so only the size stands between this body and a new team.
      const json = JSON.stringify({ name: "big", padding: "x".repeat(LIMIT) })
      const announced = yield* call("POST", "/v2/teams", {
        token: tenant.adminKey,
        tenant: tenant.id,
        headers: { "content-type": "application/json" },
        body: json
      })
      expect(announced.status).toBe(413)
      expect(announced.body).toMatchObject({ code: "payload_too_large", detail: `the request body exceeds ${LIMIT} bytes` })

    }))

  it.effect("a streamed body over the limit is cut off while reading, and nothing is created", () =>
    Effect.gen(function*() {
      const tenant = yield* seedTenant
      const url = `${yield* baseUrl}/v2/teams`
      // No Content-Length: reading stops keeping the body at the limit, and the answer is a 413.
      const streamed = yield* Effect.tryPromise(() =>
        fetch(url, {
          method: "POST",
          headers: { authorization: `Bearer ${tenant.adminKey}`, "x-tenant-id": tenant.id, "content-type": "application/json" },
          body: new Blob([JSON.stringify({ name: "big", padding: "x".repeat(LIMIT) })]).stream(),
          duplex: "half"
        } as RequestInit)
      ).pipe(Effect.either)
      expect(streamed._tag === "Right" ? streamed.right.status : streamed.left).toBe(413)
      const teams = yield* call("GET", "/v2/audit-logs?resource__in=teams", { token: tenant.adminKey, tenant: tenant.id })
      expect(teams.body.items).toEqual([])
    }))

  it.effect("a body within the limit is accepted", () =>
    Effect.gen(function*() {
      const tenant = yield* seedTenant
      // Padded inside a field the body declares: an unknown member would be refused (issue 16).
      const reply = yield* call("POST", "/v2/insights/actions/analyze-query", {
        token: tenant.adminKey,
        tenant: tenant.id,
        json: { query_text: `SELECT 1 -- ${"x".repeat(LIMIT - 100)}` }
      })
      expect(reply.status).toBe(200)
    }))
})

/** Failures that the store reports, or that nobody expected, seen by the client and by the log. */
const logged: Array<{ message: unknown; cause: string; annotations: Record<string, unknown> }> = []
const captureLogs = Logger.replace(
  Logger.defaultLogger,
  Logger.make(({ annotations, cause, message }) => {
    logged.push({ message, cause: Cause.isEmpty(cause) ? "" : Cause.pretty(cause), annotations: Object.fromEntries(annotations) })
  })
)

const failingTeams = Layer.succeed(TeamsRepo.TeamsRepo, {
  insert: (team) =>
    team.name === "outage"
      ? Effect.fail(new Errors.StoreUnavailable({ message: "connect ECONNREFUSED 10.1.2.3:5432" }))
      : Effect.die(new Error("SQLITE_ERROR: no such table: secret_teams")),
  findById: () => Effect.die(new Error("unused")),
  update: () => Effect.die(new Error("unused")),
  findAllUsers: () => Effect.die(new Error("unused")),
  listForUser: () => Effect.die(new Error("unused"))
})

layer(
  makeTestServer({ store: Layer.merge(SqliteStore.layer({ filename: ":memory:" }), failingTeams), accessLog: true }).pipe(
    Layer.provide(captureLogs)
  ),
  { excludeTestServices: true }
)("failures below the API, and the logs", (it) => {
  it.effect("an unavailable store is a 503 with Retry-After, never naming the store", () =>
    Effect.gen(function*() {
      const tenant = yield* seedTenant
      const reply = yield* call("POST", "/v2/teams", { token: tenant.adminKey, tenant: tenant.id, json: { name: "outage" } })
      expect(reply.status).toBe(503)
      expect(reply.headers.get("retry-after")).toBe("1")
      expect(reply.body).toMatchObject({ code: "unavailable", title: "Service unavailable" })
      expect(reply.text).not.toContain("10.1.2.3")
    }))

  it.effect("a defect is a 500 that hides its cause from the client and logs it with the request id", () =>
    Effect.gen(function*() {
      const tenant = yield* seedTenant
      const reply = yield* call("POST", "/v2/teams", {
        token: tenant.adminKey,
        tenant: tenant.id,
        headers: { "x-request-id": "req-defect" },
        json: { name: "boom" }
      })
      expect(reply.status).toBe(500)
      expect(reply.body).toEqual({
        type: "urn:costline:problem:internal",
        title: "Internal error",
        status: 500,
        detail: "an unexpected error occurred; it has been logged",
        code: "internal",
        details: [],
        request_id: "req-defect"
      })
      expect(reply.text).not.toContain("secret_teams")
      expect(logged).toContainEqual({
        message: ["request failed unexpectedly"],
        cause: expect.stringContaining("no such table: secret_teams"),
        annotations: { request_id: "req-defect" }
      })
    }))

  it.effect("the access log has one line per request, with its outcome and request id", () =>
    Effect.gen(function*() {
      yield* call("GET", "/v2/audit-logs?max_results=1", { headers: { "x-request-id": "req-access" } })
      expect(logged.filter((entry) => entry.annotations.request_id === "req-access")).toEqual([{
        message: ["request served"],
        cause: "",
        annotations: {
          request_id: "req-access",
          method: "GET",
          route: "/v2/audit-logs",
          status: 401,
          duration_ms: expect.any(Number),
          tenant: null
        }
      }])
    }))
})
