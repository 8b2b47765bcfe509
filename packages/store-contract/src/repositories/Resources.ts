/** Repository level: TicketLinksRepo and DwAccountsRepo, directly, without core's services. */
import { describe, expect, type Vitest } from "@effect/vitest"
import { Effect, Either, Option } from "effect"
import { DwAccount, DwAccountsRepo, TicketLink, TicketLinksRepo } from "@costline/core"
import { type ContractServices, freshOrganization } from "../Fixtures.js"
import { now, uuid } from "./Support.js"

export const resourceRepositories = (it: Vitest.MethodsNonLive<ContractServices>) => {
  describe("TicketLinksRepo", () => {
    it.effect("insert, findById and listByItem round-trip, only within the link's organization; a duplicate is AlreadyExists", () =>
      Effect.gen(function*() {
        const [organization, other] = [yield* freshOrganization, yield* freshOrganization]
        const repo = yield* TicketLinksRepo.TicketLinksRepo
        const link = new TicketLink.TicketLink({
          id: uuid<TicketLink.TicketLinkId>(),
          organization_id: organization.id,
          item_type: "team",
          item_id: "team-1",
          provider: "jira",
          ticket_id: "OPS-1",
          ticket_url: "https://jira.example.com/browse/OPS-1",
          title: null,
          created_by: "ann@example.com",
          create_time: yield* now
        })
        yield* repo.insert(link)
        expect(yield* repo.findById(organization.id, link.id)).toEqual(Option.some(link))
        expect(yield* repo.findById(other.id, link.id)).toEqual(Option.none())
        expect(yield* repo.findById(organization.id, uuid<TicketLink.TicketLinkId>())).toEqual(Option.none())
        const item = { organizationId: organization.id, itemType: "team", itemId: "team-1" } as const
        expect(yield* repo.listByItem(item, { limit: 10 })).toEqual([link])
        expect(yield* repo.listByItem({ ...item, organizationId: other.id }, { limit: 10 })).toEqual([])
        const duplicate = yield* Effect.either(repo.insert(new TicketLink.TicketLink({ ...link, id: uuid<TicketLink.TicketLinkId>() })))
        expect(Either.isLeft(duplicate) && duplicate.left._tag).toBe("AlreadyExists")
      }))
  })

  describe("DwAccountsRepo", () => {
    it.effect("insert, findById and a compare-and-set update round-trip, only within the account's organization", () =>
      Effect.gen(function*() {
        const [organization, other] = [yield* freshOrganization, yield* freshOrganization]
        const repo = yield* DwAccountsRepo.DwAccountsRepo
        const at = yield* now
        const account = new DwAccount.DwAccount({
          id: uuid<DwAccount.DwAccountId>(),
          organization_id: organization.id,
          name: "prod",
          authentication_method: "key_pair",
          username: null,
          public_key_fingerprint: null,
          credentials_updated_at: null,
          created_at: at,
          updated_at: at,
          etag: "etag-1"
        })
        yield* repo.insert(account)
        expect(yield* repo.findById(organization.id, account.id)).toEqual(Option.some(account))
        expect(yield* repo.findById(other.id, account.id)).toEqual(Option.none())
        expect(yield* repo.findCredentials(organization.id, account.id)).toEqual(Option.none())
        const renamed = new DwAccount.DwAccount({ ...account, name: "production", username: "LOADER", etag: "etag-2" })
        expect(yield* repo.update(renamed, { expectedEtag: "stale" })).toBe(false)
        expect(yield* repo.update(new DwAccount.DwAccount({ ...renamed, organization_id: other.id }), { expectedEtag: account.etag })).toBe(false)
        expect(yield* repo.findById(organization.id, account.id)).toEqual(Option.some(account))
        expect(yield* repo.update(renamed, { expectedEtag: account.etag })).toBe(true)
        expect(yield* repo.findById(organization.id, account.id)).toEqual(Option.some(renamed))
        expect(yield* repo.update(new DwAccount.DwAccount({ ...account, id: uuid<DwAccount.DwAccountId>() }), { expectedEtag: account.etag })).toBe(false)
      }))
  })
}
