/** Ticket links. One link per (item, provider, ticket), enforced by a unique index. */
import { Errors, TicketLink, TicketLinksRepo } from "@costline/core"
import { Effect, Layer, Schema } from "effect"
import { DbDateTime, isoText } from "../Columns.js"
import { afterPosition, windowOrder } from "./Listing.js"
import { RepoContext } from "./RepoContext.js"

const TicketLinkRow = Schema.Struct({ ...TicketLink.TicketLink.fields, create_time: DbDateTime })

export const make = Effect.gen(function*() {
  const { errors, reader, recoverableWrite, sql } = yield* RepoContext
  const links = reader(TicketLinkRow, (row) => new TicketLink.TicketLink(row))
  const columns = sql.literal(
    "id, organization_id, item_type, item_id, provider, ticket_id, ticket_url, title, created_by, created_at AS create_time"
  )

  return TicketLinksRepo.TicketLinksRepo.of({
    insert: (link) =>
      recoverableWrite(
        sql`INSERT INTO ticket_links ${
          sql.insert({
            id: link.id,
            organization_id: link.organization_id,
            item_type: link.item_type,
            item_id: link.item_id,
            provider: link.provider,
            ticket_id: link.ticket_id,
            ticket_url: link.ticket_url,
            title: link.title,
            created_by: link.created_by,
            created_at: isoText(link.create_time)
          })
        }`.pipe(errors.uniqueAs(() => new Errors.AlreadyExists({ message: "the item is already linked to this ticket" })))
      ),
    findById: (organizationId, id) =>
      links.first(sql`SELECT ${columns} FROM ticket_links WHERE organization_id = ${organizationId} AND id = ${id}`),
    // Served by the index ticket_links_by_item, in its order: page cost does not grow with depth.
    listByItem: (item, window) =>
      links.all(
        sql`SELECT ${columns} FROM ticket_links
            WHERE ${
          sql.and([
            sql`organization_id = ${item.organizationId}`,
            sql`item_type = ${item.itemType}`,
            sql`item_id = ${item.itemId}`,
            ...afterPosition(sql, window, "created_at", "id")
          ])
        }
            ${windowOrder(sql, window, "created_at", "id")}`
      )
  })
})

export const layer = Layer.effect(TicketLinksRepo.TicketLinksRepo, make)
