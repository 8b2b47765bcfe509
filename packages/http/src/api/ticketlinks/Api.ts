/**
 * Ticket links: `POST /v2/ticket-links`, and two extensions: `GET /v2/ticket-links?item_type=&item_id=`
 * (an item's links) and `GET /v2/ticket-links/{ticket_link_id}` (where `Location` points).
 */
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "@effect/platform"
import { Listing, TicketLink } from "@costline/core"
import { Schema, Struct } from "effect"
import { Access, change, Requires } from "../Access.js"
import { Declared } from "../Errors.js"
import { pageOf } from "../Pages.js"
import { integerParam } from "../QueryParams.js"
import { v2 } from "../Versions.js"

/** A link as the API shows it: the tenant is the caller's own, so `organization_id` is left out. */
export const TicketLinkV2 = Schema.Struct(Struct.omit(TicketLink.TicketLink.fields, "organization_id")).annotations({
  identifier: "TicketLink"
})

export const TicketLinkPage = pageOf(TicketLinkV2, "TicketLinkPage")

export const TicketLinksParams = Schema.Struct({
  item_type: TicketLink.LinkableItemType,
  item_id: TicketLink.LinkedItemId,
  max_results: Schema.optional(integerParam(1, Listing.MAX_PAGE_SIZE)),
  page_token: Schema.optional(Schema.String)
})

// Any text: an id that is not a UUID names no link, a 404 like any unknown id (see ../Ids.ts).
const TicketLinkIdParam = HttpApiSchema.param("ticket_link_id", Schema.String)

/** How the docs page and the documents name and describe this group. */
const tag = OpenApi.annotations({
  title: "Ticket links",
  description: "Links from an insight, usage group, team or warehouse account to a ticket in Jira, Linear, " +
    "GitHub, ServiceNow or another tracker."
})

export class TicketLinksApi extends v2(
  HttpApiGroup.make("ticketLinks").annotateContext(tag)
    .add(
      HttpApiEndpoint.post("createTicketLink", "/ticket-links")
        .annotate(
          Requires,
          Access.write("ticket_links", change("ticket_links", "ticket_links", "create"))
        )
        .setPayload(TicketLink.TicketLinkCreate)
        .addSuccess(TicketLinkV2, { status: 201 })
        .addError(Declared.AlreadyExists)
    )
    .add(
      HttpApiEndpoint.get("listTicketLinks", "/ticket-links")
        .annotate(Requires, Access.read("ticket_links"))
        .setUrlParams(TicketLinksParams)
        .addSuccess(TicketLinkPage)
        .addError(Declared.InvalidPageToken)
    )
    .add(
      HttpApiEndpoint.get("getTicketLink")`/ticket-links/${TicketLinkIdParam}`
        .annotate(Requires, Access.read("ticket_links"))
        .addSuccess(TicketLinkV2)
    )
) {}
