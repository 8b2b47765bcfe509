/**
 * Handlers of ticket links. `ticket_links` access is declared on the endpoints and enforced before
 * decoding; core's `TicketLinks` also requires read access to the linked item's own area (and
 * audits a refused link), so embedders get the same rule.
 */
import { TicketLink, TicketLinks } from "@costline/core"
import { Effect } from "effect"
import { CostlineApi } from "../Api.js"
import { Caller } from "../Caller.js"
import { parseId } from "../Ids.js"
import { toPage } from "../Pages.js"
import * as Respond from "../Respond.js"
import { V2_PREFIX } from "../Versions.js"
import * as Group from "../Group.js"

const linkId = parseId(TicketLink.TicketLinkId, "ticket link")

const toTicketLinkV2 = ({ organization_id: _tenant, ...link }: TicketLink.TicketLink) => link

export const TicketLinksHttpLive = Group.group(CostlineApi, "ticketLinks", (handlers) =>
  Effect.map(TicketLinks.TicketLinks, (links) =>
    handlers
      .handle("createTicketLink", ({ payload }) =>
        Effect.gen(function*() {
          const caller = yield* Caller
          const link = yield* links.create(caller.actor, caller.organizationId, payload)
          yield* Respond.setHeaders({ location: `${V2_PREFIX}/ticket-links/${link.id}` })
          return toTicketLinkV2(link)
        }))
      .handle("listTicketLinks", ({ urlParams }) =>
        Effect.gen(function*() {
          const caller = yield* Caller
          const page = yield* links.list(caller.actor, caller.organizationId, {
            item_type: urlParams.item_type,
            item_id: urlParams.item_id,
            pageToken: urlParams.page_token,
            maxResults: urlParams.max_results
          })
          return toPage(page, toTicketLinkV2)
        }))
      .handle("getTicketLink", ({ path }) =>
        Effect.gen(function*() {
          const caller = yield* Caller
          return toTicketLinkV2(yield* links.get(caller.actor, caller.organizationId, yield* linkId(path.ticket_link_id)))
        }))))
