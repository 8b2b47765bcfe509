/**
 * Handlers of ticket links. `ticket_links` access is declared on the endpoints and enforced before
 * decoding; here the caller must also be able to read the item's own area, so a link cannot reveal
 * whether an item the caller may not see exists. A link refused for that reason is audited too.
 */
import { HttpApiBuilder } from "@effect/platform"
import {
  type Area,
  type AuditEntry,
  Authorization,
  type LinkableItemType,
  Permissions,
  type TicketLink,
  TicketLinkId,
  ticketLinkValues,
  TicketLinks
} from "@costline/core"
import { Effect } from "effect"
import { CostlineApi } from "../Api.js"
import { Caller } from "../Caller.js"
import { parseId } from "../Ids.js"
import { toPage } from "../Pages.js"
import * as Respond from "../Respond.js"
import { V2_PREFIX } from "../Versions.js"

const AREA_OF_ITEM: Record<LinkableItemType, Area> = {
  insight: "insights",
  usage_group: "usage_groups",
  usage_group_set: "usage_groups",
  team: "teams",
  dw_account: "dw_accounts"
}

const linkId = parseId(TicketLinkId, "ticket link")

const toTicketLinkV2 = ({ organization_id: _tenant, ...link }: TicketLink) => link

export const TicketLinksHttpLive = HttpApiBuilder.group(CostlineApi, "ticketLinks", (handlers) =>
  Effect.gen(function*() {
    const authorization = yield* Authorization
    const links = yield* TicketLinks

    /** Read access to the item's area; `attempted` names the change to audit if it is refused. */
    const requireItemArea = (itemType: LinkableItemType, attempted?: AuditEntry) =>
      Effect.flatMap(Caller, (caller) =>
        Effect.as(
          authorization.require(
            caller.principal,
            Permissions.read(AREA_OF_ITEM[itemType]),
            attempted && { entry: attempted, requestId: caller.requestId }
          ),
          caller
        ))

    return handlers
      .handle("createTicketLink", ({ payload }) =>
        Effect.gen(function*() {
          const caller = yield* requireItemArea(payload.item_type, {
            target: { resource: "ticket_links" },
            table_name: "ticket_links",
            record_id: null,
            operation: "create",
            new_values: ticketLinkValues({ ...payload, title: payload.title ?? null })
          })
          const link = yield* links.create(caller.actor, caller.organizationId, payload)
          yield* Respond.setHeaders({ location: `${V2_PREFIX}/ticket-links/${link.id}` })
          return toTicketLinkV2(link)
        }))
      .handle("listTicketLinks", ({ urlParams }) =>
        Effect.gen(function*() {
          const caller = yield* requireItemArea(urlParams.item_type)
          const page = yield* links.list(caller.organizationId, {
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
          const link = yield* links.get(caller.organizationId, yield* linkId(path.ticket_link_id))
          yield* requireItemArea(link.item_type)
          return toTicketLinkV2(link)
        }))
  }))
