/** Storage contract of ticket links, and the port that tells whether a linkable item exists. */
import { Context, type Effect, type Option } from "effect"
import type { AlreadyExists, StoreUnavailable } from "../shared/Errors.js"
import type { OrganizationId } from "../shared/Ids.js"
import type { Window } from "../shared/Listing.js"
import type { LinkableItemType, TicketLink, TicketLinkId } from "./Domain.js"

/**
 * One item of an organization, as a ticket link names it.
 * @since 0.1.0
 * @category models
 */
export interface ItemRef {
  readonly organizationId: OrganizationId
  readonly itemType: LinkableItemType
  readonly itemId: string
}

/**
 * @since 0.1.0
 * @category tags
 */
export class TicketLinksRepo extends Context.Tag("@costline/core/TicketLinksRepo")<
  TicketLinksRepo,
  {
    /** Fails with AlreadyExists when the item already has a link to this provider's ticket. */
    readonly insert: (link: TicketLink) => Effect.Effect<void, AlreadyExists | StoreUnavailable>
    readonly findById: (
      organizationId: OrganizationId,
      id: TicketLinkId
    ) => Effect.Effect<Option.Option<TicketLink>, StoreUnavailable>
    /** A window of the item's links, ordered by (`create_time`, `id`). */
    readonly listByItem: (item: ItemRef, window: Window) => Effect.Effect<ReadonlyArray<TicketLink>, StoreUnavailable>
  }
>() {}

/**
 * Whether an item exists in an organization. Items live in other areas' tables, so a ticket link
 * cannot carry a foreign key; this is the check in its place.
 * @since 0.1.0
 * @category tags
 */
export class LinkableItems extends Context.Tag("@costline/core/LinkableItems")<
  LinkableItems,
  { readonly exists: (item: ItemRef) => Effect.Effect<boolean, StoreUnavailable> }
>() {}
