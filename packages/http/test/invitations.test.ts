/**
 * `POST /v2/invitations/accept`: no bearer credential, the invitation's token is one. The invitee
 * becomes a member with the invited role and is signed in; a token works once; every token that
 * cannot be accepted gets the same 404; failures are limited per address like failed
 * authentication.
 */
import { Actor, Invitations, Users } from "@costline/core"
import type { Ids } from "@costline/core"
import { layer } from "@effect/vitest"
import { Clock, DateTime, Duration, Effect } from "effect"
import { expect } from "vitest"
import { call, makeTestServer, seedTenant } from "./support/TestServer.js"

const invite = (tenant: string, email: string, role: "viewer" | "editor" = "viewer", expiresAt?: DateTime.Utc) =>
  Effect.flatMap(Invitations.Invitations, (invitations) =>
    invitations.create(Actor.Actor.system(), tenant as Ids.OrganizationId, { email, role, expiresAt }))

const accept = (tenant: string | undefined, json: unknown, headers: Record<string, string> = {}) =>
  call("POST", "/v2/invitations/accept", { ...(tenant === undefined ? {} : { tenant }), json, headers })

/** `clock`, `ms` behind: an invitation made under it may expire before the server's "now". */
const behind = (clock: Clock.Clock, ms: number): Clock.Clock => ({
  [Clock.ClockTypeId]: Clock.ClockTypeId,
  unsafeCurrentTimeMillis: () => clock.unsafeCurrentTimeMillis() - ms,
  currentTimeMillis: Effect.sync(() => clock.unsafeCurrentTimeMillis() - ms),
  unsafeCurrentTimeNanos: () => clock.unsafeCurrentTimeNanos() - BigInt(ms) * 1_000_000n,
  currentTimeNanos: Effect.sync(() => clock.unsafeCurrentTimeNanos() - BigInt(ms) * 1_000_000n),
  sleep: (duration) => clock.sleep(duration)
})

/** What a refusal says, without its request id. */
const said = (reply: { status: number; body: Record<string, unknown> }) => {
  const { request_id: _id, ...body } = reply.body
  return { status: reply.status, body }
}

layer(makeTestServer(), { excludeTestServices: true })("accepting an invitation over HTTP", (it) => {
  it.effect("makes the invitee a member with the role, signed in (token once, no-store); a second accept is a 404", () =>
    Effect.gen(function*() {
      const tenant = yield* seedTenant
      const { token } = yield* invite(tenant.id, "new@example.com", "editor")
      const accepted = yield* accept(tenant.id, { token, email: "New@Example.com" }, { "x-request-id": "accept-1" })
      expect(accepted.status).toBe(200)
      expect(accepted.headers.get("cache-control")).toBe("no-store")
      expect(accepted.body).toEqual({
        organization_id: tenant.id,
        email: "new@example.com",
        role: "editor",
        session: { token: expect.stringMatching(/^cls_/), expires_at: expect.any(String) }
      })
      const roles = yield* call("GET", "/v2/users/new%40example.com/roles", { token: accepted.body.session.token, tenant: tenant.id })
      expect(roles.status).toBe(200)
      expect(roles.body.items.map((item: { role: string }) => item.role)).toEqual(["editor"])
      // The invitation token is never a bearer credential.
      expect((yield* call("GET", "/v2/insights", { token, tenant: tenant.id })).status).toBe(401)

      const again = yield* accept(tenant.id, { token, email: "new@example.com" })
      expect(again.status).toBe(404)
      expect(again.body).toMatchObject({ code: "not_found", detail: "invitation for this token and email not found" })

      const records = yield* call("GET", "/v2/audit-logs?max_results=500", { token: tenant.adminKey, tenant: tenant.id })
      const accepting = records.body.items.filter((record: { request_id: string }) => record.request_id === "accept-1")
      expect(accepting.map((record: Record<string, string>) => [record.event_type ?? record.resource, record.operation, record.changed_by]))
        .toEqual([
          ["invitation", "revoke", "new@example.com"],
          ["user_roles", "create", "new@example.com"],
          ["session", "login", "new@example.com"]
        ])
      expect(JSON.stringify(records.body)).not.toContain(token)
    }))

  it.effect("unknown, malformed, revoked, expired, used or another email's: one and the same 404, nothing written", () =>
    Effect.gen(function*() {
      const tenant = yield* seedTenant
      const revoked = yield* invite(tenant.id, "revoked@example.com")
      yield* Effect.flatMap(Invitations.Invitations, (invitations) => invitations.revoke(Actor.Actor.system(), tenant.id as Ids.OrganizationId, revoked.invitation.id))
      // Made a minute ago (by its own clock) to expire a second ago: expired for the server now.
      const expiredAt = DateTime.subtractDuration(yield* DateTime.now, Duration.seconds(1))
      const expiring = yield* invite(tenant.id, "late@example.com", "viewer", expiredAt).pipe(
        Effect.withClock(behind(yield* Effect.clock, 60_000))
      )
      const pending = yield* invite(tenant.id, "pending@example.com")
      const used = yield* invite(tenant.id, "used@example.com")
      expect((yield* accept(tenant.id, { token: used.token, email: "used@example.com" })).status).toBe(200)

      const refusals = [
        yield* accept(tenant.id, { token: "cli_000000000000000000000000000000000000", email: "pending@example.com" }),
        yield* accept(tenant.id, { token: "not a token", email: "pending@example.com" }),
        yield* accept(tenant.id, { token: revoked.token, email: "revoked@example.com" }),
        yield* accept(tenant.id, { token: expiring.token, email: "late@example.com" }),
        yield* accept(tenant.id, { token: used.token, email: "used@example.com" }),
        yield* accept(tenant.id, { token: pending.token, email: "someone.else@example.com" }),
        yield* accept("org-elsewhere", { token: pending.token, email: "pending@example.com" })
      ].map(said)
      expect(new Set(refusals.map((refusal) => JSON.stringify(refusal))).size).toBe(1)
      expect(refusals[0]).toMatchObject({ status: 404, body: { code: "not_found" } })
      for (const email of ["pending@example.com", "late@example.com", "revoked@example.com", "someone.else@example.com"]) {
        expect((yield* Effect.flip((yield* Users.Users).findByEmail(tenant.id as Ids.OrganizationId, email)))._tag).toBe("NotFound")
      }
      // Still open: the right email accepts it.
      expect((yield* accept(tenant.id, { token: pending.token, email: "pending@example.com" })).status).toBe(200)
    }))

  it.effect("a request without the tenant header, with a field missing or an unknown one, is a 422", () =>
    Effect.gen(function*() {
      const tenant = yield* seedTenant
      const { token } = yield* invite(tenant.id, "strict@example.com")
      const noTenant = yield* accept(undefined, { token, email: "strict@example.com" })
      expect(noTenant.status).toBe(422)
      expect(noTenant.body.details[0].field).toBe("header.x-tenant-id")
      expect((yield* accept(tenant.id, { token })).status).toBe(422)
      expect((yield* accept(tenant.id, { token, email: "strict@example.com", role: "admin" })).status).toBe(422)
      expect((yield* call("POST", "/v2/invitations/accept?role=admin", { tenant: tenant.id, json: { token, email: "strict@example.com" } })).status)
        .toBe(422)
      // None of these used the invitation up.
      expect((yield* accept(tenant.id, { token, email: "strict@example.com" })).status).toBe(200)
    }))
})

layer(makeTestServer({ authFailureLimit: { requestsPerSecond: 0.001, burst: 3 } }), { excludeTestServices: true })(
  "failed accepts are limited like failed authentication",
  (it) => {
    it.effect("after the address's budget of failures, even a valid token is a 429 with Retry-After", () =>
      Effect.gen(function*() {
        const tenant = yield* seedTenant
        const { token } = yield* invite(tenant.id, "patient@example.com")
        for (let attempt = 0; attempt < 3; attempt++) {
          expect((yield* accept(tenant.id, { token: `cli_guess${attempt}`, email: "patient@example.com" })).status).toBe(404)
        }
        const limited = yield* accept(tenant.id, { token, email: "patient@example.com" })
        expect(limited.status).toBe(429)
        expect(limited.body.code).toBe("rate_limited")
        expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0)
        expect((yield* Effect.flip((yield* Users.Users).findByEmail(tenant.id as Ids.OrganizationId, "patient@example.com")))._tag).toBe("NotFound")
      }))
  }
)
