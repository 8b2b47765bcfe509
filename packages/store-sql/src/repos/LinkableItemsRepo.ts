/**
 * Whether an item a ticket link names exists in the organization: one indexed lookup by primary
 * key in the item's own table. The table names are fixed here, never taken from the request.
 */
import { TicketLinksRepo } from "@costline/core"
import type { TicketLink } from "@costline/core"
import { Effect, Layer } from "effect"
import { RepoContext } from "./RepoContext.js"

const TABLES: Record<TicketLink.LinkableItemType, string> = {
  insight: "insights",
  usage_group: "usage_groups",
  usage_group_set: "usage_group_sets",
  team: "teams",
  dw_account: "dw_accounts"
}

export const make = Effect.gen(function*() {
  const { errors, sql } = yield* RepoContext
  return TicketLinksRepo.LinkableItems.of({
    exists: (item) =>
      sql`SELECT 1 AS found FROM ${sql(TABLES[item.itemType])}
          WHERE organization_id = ${item.organizationId} AND id = ${item.itemId}`.pipe(
        Effect.map((rows) => rows.length > 0),
        errors.orUnavailable
      )
  })
})

export const layer = Layer.effect(TicketLinksRepo.LinkableItems, make)
