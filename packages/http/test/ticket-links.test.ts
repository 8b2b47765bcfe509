/** Ticket links through the real server: creation, the item's list, and who may do what. */
import { Actor, Team, Teams } from "@costline/core"
import { layer } from "@effect/vitest"
import { Effect } from "effect"
import { randomUUID } from "node:crypto"
import { expect } from "vitest"
import { call, makeTestServer, seedTenant } from "./support/TestServer.js"

type Tenant = Effect.Effect.Success<typeof seedTenant>

const team = new Team.CreateTeam({ name: "Data", is_all_users: false, default_member_role: "viewer" })

const newTeam = (tenant: Tenant) =>
  Effect.map(Effect.flatMap(Teams.Teams, (teams) => teams.create(Actor.Actor.system(), tenant.id, team)), ({ id }) => id)

/** Call options of the tenant's admin key. */
const asAdmin = (tenant: Tenant) => ({ token: tenant.adminKey, tenant: tenant.id })

const link = (teamId: string, ticket_id = "COST-7") => ({
  item_type: "team",
  item_id: teamId,
  provider: "jira",
  ticket_id,
  ticket_url: `https://acme.atlassian.net/browse/${ticket_id}`
})

const lastTicketLinkRecord = (tenant: Tenant) =>
  Effect.map(
    call("GET", "/v2/audit-logs?resource__in=ticket_links&sort_order=desc&max_results=1", asAdmin(tenant)),
    (reply) => reply.body.items[0]
  )

layer(makeTestServer(), { excludeTestServices: true })("ticket links", (it) => {
  it.effect("POST /v2/ticket-links answers 201 with Location, and the link reads back there; it is audited", () =>
    Effect.gen(function*() {
      const tenant = yield* seedTenant
      const teamId = yield* newTeam(tenant)
      const reply = yield* call("POST", "/v2/ticket-links", {
        token: tenant.adminKey,
        tenant: tenant.id,
        headers: { "x-request-id": "req-link-1" },
        json: { ...link(teamId), ticket_id: " COST-7 ", title: "Resize the team's warehouse" }
      })
      expect(reply.status).toBe(201)
      expect(Object.keys(reply.body).sort()).toEqual(
        ["create_time", "created_by", "id", "item_id", "item_type", "provider", "ticket_id", "ticket_url", "title"]
      )
      expect(reply.body).toMatchObject({ ticket_id: "COST-7", item_id: teamId, created_by: expect.stringMatching(/^api_key:/) })
      expect(reply.headers.get("location")).toBe(`/v2/ticket-links/${reply.body.id}`)

      const read = yield* call("GET", reply.headers.get("location")!, asAdmin(tenant))
      expect(read.status).toBe(200)
      expect(read.body).toEqual(reply.body)
      expect(yield* lastTicketLinkRecord(tenant)).toMatchObject({
        table_name: "ticket_links",
        operation: "create",
        status: "success",
        record_id: reply.body.id,
        request_id: "req-link-1",
        new_values: { item_type: "team", ticket_id: "COST-7", title: "Resize the team's warehouse" }
      })
    }))

  it.effect("GET /v2/ticket-links lists an item's links in pages with opaque tokens", () =>
    Effect.gen(function*() {
      const tenant = yield* seedTenant
      const teamId = yield* newTeam(tenant)
      for (const ticket of ["A-1", "A-2", "A-3"]) {
        expect((yield* call("POST", "/v2/ticket-links", { ...asAdmin(tenant), json: link(teamId, ticket) })).status).toBe(201)
      }
      const list = (query: string) => call("GET", `/v2/ticket-links?item_type=team&item_id=${teamId}${query}`, asAdmin(tenant))
      const first = yield* list("&max_results=2")
      expect(first.status).toBe(200)
      expect(first.body.row_count).toBe(2)
      const second = yield* list(`&max_results=2&page_token=${encodeURIComponent(first.body.page_token)}`)
      expect(second.body).toMatchObject({ row_count: 1, page_token: null })
      // Links made within one millisecond are ordered by id, so only the whole is predictable.
      const tickets = [...first.body.items, ...second.body.items].map((item: { ticket_id: string }) => item.ticket_id)
      expect(tickets.sort()).toEqual(["A-1", "A-2", "A-3"])

      const forged = yield* list("&page_token=abc.def")
      expect(forged.status).toBe(400)
      expect(forged.body.code).toBe("invalid_page_token")
    }))

  it.effect("bad input is a 422 naming the field; an unknown item a 404; the same ticket twice a 409", () =>
    Effect.gen(function*() {
      const tenant = yield* seedTenant
      const other = yield* seedTenant
      const teamId = yield* newTeam(tenant)
      const create = (json: unknown) => call("POST", "/v2/ticket-links", { ...asAdmin(tenant), json })

      const badUrl = yield* create({ ...link(teamId), ticket_url: "javascript:alert(1)" })
      expect(badUrl.status).toBe(422)
      expect(badUrl.body.details).toEqual([
        { field: "body.ticket_url", issue: "invalid_value", message: "must be an absolute http or https URL" }
      ])
      const noItem = yield* call("GET", "/v2/ticket-links?item_type=team", asAdmin(tenant))
      expect(noItem.status).toBe(422)
      expect(noItem.body.details.map((detail: { field: string }) => detail.field)).toEqual(["query.item_id"])

      for (const itemId of [randomUUID(), "not-a-uuid"]) {
        const unknown = yield* create(link(itemId))
        expect(unknown.status).toBe(404)
        expect(unknown.body.code).toBe("not_found")
      }
      const othersTeam = yield* newTeam(other)
      expect((yield* create(link(othersTeam))).status).toBe(404)

      expect((yield* create(link(teamId))).status).toBe(201)
      const twice = yield* create(link(teamId))
      expect(twice.status).toBe(409)
      expect(twice.body).toMatchObject({
        code: "already_exists",
        detail: `team ${teamId} is already linked to jira ticket COST-7`
      })
    }))

  it.effect("editors link, viewers only read: a refused link is audited as a failure", () =>
    Effect.gen(function*() {
      const tenant = yield* seedTenant
      const teamId = yield* newTeam(tenant)
      const editor = yield* tenant.userSession("editor")
      const viewer = yield* tenant.userSession("viewer")
      const create = (token: string, ticket: string) =>
        call("POST", "/v2/ticket-links", { token, tenant: tenant.id, json: link(teamId, ticket) })

      expect((yield* create(editor.token, "E-1")).status).toBe(201)
      const refused = yield* create(viewer.token, "V-1")
      expect(refused.status).toBe(403)
      expect(yield* lastTicketLinkRecord(tenant)).toMatchObject({
        status: "failure",
        record_id: null,
        changed_by: viewer.email,
        new_values: { item_id: teamId, ticket_id: "V-1" }
      })
      const listed = yield* call("GET", `/v2/ticket-links?item_type=team&item_id=${teamId}`, {
        token: viewer.token,
        tenant: tenant.id
      })
      expect(listed.body.row_count).toBe(1)
    }))

  it.effect("an API key needs read access to the item's area as well as ticket_links access", () =>
    Effect.gen(function*() {
      const tenant = yield* seedTenant
      const teamId = yield* newTeam(tenant)
      const linksOnly = yield* tenant.apiKey("read_write", ["ticket_links:write"])
      const linksAndTeams = yield* tenant.apiKey("read_write", ["ticket_links:write", "teams:read"])
      const create = (token: string) => call("POST", "/v2/ticket-links", { token, tenant: tenant.id, json: link(teamId) })
      expect((yield* create(linksOnly)).status).toBe(403)
      expect((yield* create(linksAndTeams)).status).toBe(201)
      const list = (token: string) =>
        call("GET", `/v2/ticket-links?item_type=team&item_id=${teamId}`, { token, tenant: tenant.id })
      expect((yield* list(linksOnly)).status).toBe(403)
      expect((yield* list(linksAndTeams)).status).toBe(200)
    }))

  it.effect("another tenant's link is a 404", () =>
    Effect.gen(function*() {
      const tenant = yield* seedTenant
      const other = yield* seedTenant
      const created = yield* call("POST", "/v2/ticket-links", { ...asAdmin(tenant), json: link(yield* newTeam(tenant)) })
      const read = yield* call("GET", `/v2/ticket-links/${created.body.id}`, asAdmin(other))
      expect(read.status).toBe(404)
    }))
})
