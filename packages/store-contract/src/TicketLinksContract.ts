/** Contract: ticket links (existence of the item, one link per ticket, keyset pages) and their audit records. */
import { describe, expect, type Vitest } from "@effect/vitest"
import { Effect, Schema, TestClock } from "effect"
import { randomUUID } from "node:crypto"
import { Actor, DwAccount, DwAccounts, Insight, Insights, Team, Teams, TicketLink, TicketLinks } from "@costline/core"
import type { Ids } from "@costline/core"
import { drainExport, freshOrganization, ids, keyActor, memberActor } from "./Fixtures.js"
import type { SecretsContractServices } from "./SecretsFixtures.js"
import { createGroup, createSet } from "./UsageFixtures.js"

/** An editor: she may link items of every area and read them back. */
const alice = memberActor("org-of-alice" as Ids.OrganizationId, "alice@example.com", ["editor"])

const newTeam = new Team.CreateTeam({ name: "Data", is_all_users: false, default_member_role: "viewer" })

const teamOf = (organizationId: Ids.OrganizationId) =>
  Effect.map(Effect.flatMap(Teams.Teams, (teams) => teams.create(Actor.Actor.system(), organizationId, newTeam)), (team) => team.id)

/** Decoded as a request body is: the ticket id is trimmed. */
const decodeLink = Schema.decodeSync(TicketLink.TicketLinkCreate)

const linkTo = (
  item_type: TicketLink.LinkableItemType,
  item_id: string,
  ticket_id: string,
  provider: TicketLink.TicketLinkCreate["provider"] = "jira"
) =>
  decodeLink({ item_type, item_id, provider, ticket_id, ticket_url: `https://tracker.example/browse/${ticket_id.trim()}` })

/** Follows the item's list to its end with `pageSize`, returning the pages' lengths and every link. */
const readAll = (organizationId: Ids.OrganizationId, item_type: TicketLink.LinkableItemType, item_id: string, pageSize: number) =>
  Effect.gen(function*() {
    const links = yield* TicketLinks.TicketLinks
    const sizes: Array<number> = []
    const all: Array<TicketLink.TicketLink> = []
    let pageToken: string | undefined
    do {
      const page = yield* links.list(alice, organizationId, { item_type, item_id, pageToken, maxResults: pageSize })
      sizes.push(page.items.length)
      all.push(...page.items)
      pageToken = page.page_token ?? undefined
    } while (pageToken !== undefined)
    return { sizes, all }
  })

export const ticketLinksContract = (it: Vitest.MethodsNonLive<SecretsContractServices>) => {
  describe("ticket links", () => {
    it.effect("links a team to a ticket, reads it back, lists it and audits the creation", () =>
      Effect.gen(function*() {
        const links = yield* TicketLinks.TicketLinks
        const organization = yield* freshOrganization
        const teamId = yield* teamOf(organization.id)
        const created = yield* links.create(alice, organization.id, decodeLink({
          item_type: "team",
          item_id: teamId,
          provider: "linear",
          ticket_id: "  ENG-42 ",
          ticket_url: "https://linear.app/acme/issue/ENG-42",
          title: "Shrink the warehouse"
        }))
        expect(created).toMatchObject({ ticket_id: "ENG-42", created_by: "alice@example.com", title: "Shrink the warehouse" })
        expect(yield* links.get(alice, organization.id, created.id)).toEqual(created)
        expect(yield* links.list(alice, organization.id, { item_type: "team", item_id: teamId })).toEqual({
          items: [created],
          page_token: null
        })
        const { records } = yield* drainExport(organization.id, { filters: { resource_in: ["ticket_links"] } })
        expect(records).toHaveLength(1)
        expect(records[0]).toMatchObject({
          table_name: "ticket_links",
          operation: "create",
          record_id: created.id,
          changed_by: "alice@example.com",
          new_values: {
            item_type: "team",
            item_id: teamId,
            provider: "linear",
            ticket_id: "ENG-42",
            ticket_url: "https://linear.app/acme/issue/ENG-42",
            title: "Shrink the warehouse"
          }
        })
      }))

    it.effect("the caller must be able to read the linked item's area: else Forbidden, and a refused link is audited", () =>
      Effect.gen(function*() {
        const links = yield* TicketLinks.TicketLinks
        const organization = yield* freshOrganization
        const teamId = yield* teamOf(organization.id)
        const linksOnly = keyActor(organization.id, "read_write", ["ticket_links:write"])
        const teamsToo = keyActor(organization.id, "read_write", ["ticket_links:write", "teams:read"])

        const refused = yield* Effect.flip(links.create(linksOnly, organization.id, linkTo("team", teamId, "SEC-1")))
        expect(refused).toMatchObject({ _tag: "Forbidden", message: "not allowed to read teams" })
        const link = yield* links.create(teamsToo, organization.id, linkTo("team", teamId, "SEC-1"))
        expect((yield* Effect.flip(links.get(linksOnly, organization.id, link.id)))._tag).toBe("Forbidden")
        expect((yield* Effect.flip(links.list(linksOnly, organization.id, { item_type: "team", item_id: teamId })))._tag).toBe("Forbidden")
        expect(yield* links.get(teamsToo, organization.id, link.id)).toEqual(link)
        // A viewer reads every area; an actor that names a user but carries no principal may do nothing.
        const viewer = memberActor(organization.id, "viewer@example.com", ["viewer"])
        expect((yield* links.list(viewer, organization.id, { item_type: "team", item_id: teamId })).items).toEqual([link])
        const anonymous = new Actor.Actor({ changedBy: "someone@example.com", changedByType: "user", requestId: null })
        expect((yield* Effect.flip(links.get(anonymous, organization.id, link.id)))._tag).toBe("Forbidden")
        expect(yield* links.get(Actor.Actor.system(), organization.id, link.id)).toEqual(link)

        const { records } = yield* drainExport(organization.id, { filters: { resource_in: ["ticket_links"] } })
        expect(records.map((record) => [record.status, record.changed_by, record.new_values?.["ticket_id"]])).toEqual([
          ["failure", linksOnly.changedBy, "SEC-1"],
          ["success", teamsToo.changedBy, "SEC-1"]
        ])
      }))

    it.effect("links a warehouse account; an item unknown in the organization is NotFound and audits nothing", () =>
      Effect.gen(function*() {
        const links = yield* TicketLinks.TicketLinks
        const [organization, other] = [yield* freshOrganization, yield* freshOrganization]
        const account = yield* (yield* DwAccounts.DwAccounts).create(Actor.Actor.system(), organization.id, new DwAccount.CreateDwAccount({ name: "Prod" }))
        const link = yield* links.create(alice, organization.id, linkTo("dw_account", account.id, "OPS-1"))
        const othersTeam = yield* teamOf(other.id)

        const unknown = [["team", othersTeam], ["team", randomUUID()], ["dw_account", randomUUID()]] as const
        for (const [item_type, item_id] of unknown) {
          const refused = yield* Effect.flip(links.create(alice, organization.id, linkTo(item_type, item_id, "OPS-2")))
          expect(refused).toMatchObject({ _tag: "NotFound", resource: item_type, id: item_id })
          const listed = yield* Effect.flip(links.list(alice, organization.id, { item_type, item_id }))
          expect(listed._tag).toBe("NotFound")
        }
        expect((yield* Effect.flip(links.get(alice, other.id, link.id)))._tag).toBe("NotFound")
        const { records } = yield* drainExport(organization.id, { filters: { resource_in: ["ticket_links"] } })
        expect(records).toHaveLength(1)
      }))

    it.effect("links an insight, a usage group set and a usage group, each only in its own organization", () =>
      Effect.gen(function*() {
        const links = yield* TicketLinks.TicketLinks
        const [organization, other] = [yield* freshOrganization, yield* freshOrganization]
        const upserted = yield* (yield* Insights.Insights).upsert(Actor.Actor.system(), organization.id, new Insight.InsightUpsert({
          insight_type: "warehouse_idle",
          resource_type: "warehouse",
          resource_id: "WH_IDLE",
          title: "Warehouse WH_IDLE is idle",
          description: "",
          severity: "low"
        }))
        const set = yield* createSet(organization.id)
        const group = yield* createGroup(organization.id, set.id, { name: "ETL" })
        const items = [["insight", upserted.insight.id], ["usage_group_set", set.id], ["usage_group", group.id]] as const

        for (const [item_type, item_id] of items) {
          const link = yield* links.create(alice, organization.id, linkTo(item_type, item_id, "FIN-9"))
          expect(link).toMatchObject({ item_type, item_id })
          const refused = yield* Effect.flip(links.create(alice, other.id, linkTo(item_type, item_id, "FIN-9")))
          expect(refused._tag).toBe("NotFound")
        }
      }))

    it.effect("one link per item, provider and ticket: a second is AlreadyExists; other providers and items are free", () =>
      Effect.gen(function*() {
        const links = yield* TicketLinks.TicketLinks
        const organization = yield* freshOrganization
        const [first, second] = [yield* teamOf(organization.id), yield* teamOf(organization.id)]
        yield* links.create(alice, organization.id, linkTo("team", first, "PROJ-1"))
        const duplicate = yield* Effect.flip(links.create(alice, organization.id, linkTo("team", first, " PROJ-1")))
        expect(duplicate).toMatchObject({
          _tag: "AlreadyExists",
          message: `team ${first} is already linked to jira ticket PROJ-1`
        })
        yield* links.create(alice, organization.id, linkTo("team", first, "PROJ-1", "github"))
        yield* links.create(alice, organization.id, linkTo("team", second, "PROJ-1"))
        const { records } = yield* drainExport(organization.id, { filters: { resource_in: ["ticket_links"] } })
        expect(records).toHaveLength(3)
      }))

    it.effect("lists an item's links oldest first in pages; links created in the same instant keep a stable order", () =>
      Effect.gen(function*() {
        const links = yield* TicketLinks.TicketLinks
        const organization = yield* freshOrganization
        const [teamId, otherTeam] = [yield* teamOf(organization.id), yield* teamOf(organization.id)]
        const created: Array<TicketLink.TicketLink> = []
        for (const [index, ticket] of ["A-1", "A-2", "A-3", "A-4", "A-5"].entries()) {
          // Three links share one instant: the id breaks the tie.
          if (index >= 3) yield* TestClock.adjust("1 second")
          created.push(yield* links.create(alice, organization.id, linkTo("team", teamId, ticket)))
        }
        yield* links.create(alice, organization.id, linkTo("team", otherTeam, "B-1"))
        const sameInstant = created.slice(0, 3).sort((a, b) => a.id.localeCompare(b.id))
        const expected = [...sameInstant, ...created.slice(3)]

        const paged = yield* readAll(organization.id, "team", teamId, 2)
        expect(paged.sizes).toEqual([2, 2, 1])
        expect(ids(paged.all)).toEqual(ids(expected))
        const exact = yield* readAll(organization.id, "team", teamId, 5)
        expect(exact.sizes).toEqual([5])
      }))

    it.effect("a page token resumes only its own list, in its own organization", () =>
      Effect.gen(function*() {
        const links = yield* TicketLinks.TicketLinks
        const [organization, other] = [yield* freshOrganization, yield* freshOrganization]
        const [teamId, otherTeam] = [yield* teamOf(organization.id), yield* teamOf(organization.id)]
        for (const ticket of ["T-1", "T-2"]) yield* links.create(alice, organization.id, linkTo("team", teamId, ticket))
        const first = yield* links.list(alice, organization.id, { item_type: "team", item_id: teamId, maxResults: 1 })
        const pageToken = first.page_token!

        const elsewhere = yield* Effect.flip(links.list(alice, organization.id, { item_type: "team", item_id: otherTeam, pageToken }))
        expect(elsewhere).toMatchObject({ _tag: "InvalidPageToken", message: "page_token was issued for another list" })
        const otherTenant = yield* Effect.flip(links.list(alice, other.id, { item_type: "team", item_id: teamId, pageToken }))
        expect(otherTenant).toMatchObject({ _tag: "InvalidPageToken", message: "page_token was issued for another organization" })
        const garbled = yield* Effect.flip(
          links.list(alice, organization.id, { item_type: "team", item_id: teamId, pageToken: `${pageToken}x` })
        )
        expect(garbled._tag).toBe("InvalidPageToken")
        const tooMany = yield* Effect.flip(links.list(alice, organization.id, { item_type: "team", item_id: teamId, maxResults: 501 }))
        expect(tooMany).toMatchObject({ _tag: "ValidationFailed", details: [{ field: "query.max_results" }] })
      }))
  })
}
