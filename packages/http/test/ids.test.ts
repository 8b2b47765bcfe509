/**
 * The one id rule (`parseId`, core `shared/Ids.ts`): a resource id is a UUID, read in any case
 * (RFC 9562), so the upper-case spelling of an id names the same resource on every route; text
 * that is no UUID names nothing (404).
 */
import { layer } from "@effect/vitest"
import { Effect } from "effect"
import { expect } from "vitest"
import { upsertInsight } from "./support/Insights.js"
import { call, makeTestServer, seedTenant } from "./support/TestServer.js"
import { newGroup, newSet } from "./support/Usage.js"

type Tenant = Effect.Effect.Success<typeof seedTenant>

const v2 = (tenant: Tenant) => (method: string, path: string, json?: unknown) =>
  call(method, `/v2${path}`, { token: tenant.adminKey, tenant: tenant.id, ...(json === undefined ? {} : { json }) })

const created = (reply: { readonly status: number; readonly body: { readonly id: string }; readonly text: string }) => {
  if (reply.status !== 201) throw new Error(`not created: ${reply.status} ${reply.text}`)
  return reply.body.id
}

layer(makeTestServer(), { excludeTestServices: true })("resource ids", (it) => {
  it.effect("an id in upper case names the same resource as in lower case, on every resource; no UUID is a 404", () =>
    Effect.gen(function*() {
      const tenant = yield* seedTenant
      const call2 = v2(tenant)
      const team = created(yield* call2("POST", "/teams", { name: "Ops" }))
      const ssoGroup = created(
        yield* call2("POST", "/sso-groups", { name: "Okta", roles: [{ role: "viewer", scope: { type: "organization" } }] })
      )
      const set = (yield* newSet(tenant)).id as string
      const group = (yield* newGroup(tenant, set)).id as string
      const insight = (yield* upsertInsight(tenant.id, "WH_IDS")).id
      const paths = (spell: (id: string) => string) => [
        `/teams/${spell(team)}`,
        `/sso-groups/${spell(ssoGroup)}`,
        `/usage-group-sets/${spell(set)}`,
        `/usage-group-sets/${spell(set)}/usage-groups/${spell(group)}`,
        `/insights/${spell(insight)}`
      ]
      const upperCase = paths((id) => id.toUpperCase())
      for (const [index, path] of paths((id) => id).entries()) {
        const lower = yield* call2("GET", path)
        expect(lower.status, path).toBe(200)
        const upper = yield* call2("GET", upperCase[index]!)
        expect(upper.status, upperCase[index]).toBe(200)
        expect(upper.body.id).toBe(lower.body.id)
      }
      for (const path of ["/teams/nope", "/sso-groups/nope", "/usage-group-sets/nope", "/insights/nope"]) {
        const reply = yield* call2("GET", path)
        expect(reply.status, path).toBe(404)
        expect(reply.body.code).toBe("not_found")
      }
    }))
})
