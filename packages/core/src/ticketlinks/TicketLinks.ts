/**
 * The ticket links service. Every link created appends its `ticket_links` audit record in the same
 * transaction. Besides ticket-link access, the caller must be able to read the linked item's own
 * area, so a link cannot reveal whether an item the caller may not see exists; a link refused for
 * that reason is audited as a failure.
 */
import { Context, DateTime, Effect, Layer } from "effect"
import { AuditLog } from "../audit/AuditLog.js"
import * as Audited from "../audit/internal/Audited.js"
import type { AuditEntry } from "../audit/Domain.js"
import type { Area } from "../identity/Domain.js"
import { authorityOf, unknownAuthority } from "../identity/internal/GrantGuard.js"
import * as Permissions from "../identity/Permissions.js"
import type { Actor } from "../shared/Actor.js"
import {
  AlreadyExists,
  Forbidden,
  type InvalidPageToken,
  NotFound,
  type StoreUnavailable,
  type ValidationFailed,
  orNotFound
} from "../shared/Errors.js"
import { newId, type OrganizationId } from "../shared/Ids.js"
import { DEFAULT_PAGE_SIZE, keysetOf, ListCursors, type Page } from "../shared/Listing.js"
import { Transactor } from "../shared/Transactor.js"
import { type LinkableItemType, TicketLink, type TicketLinkCreate, type TicketLinkId } from "./Domain.js"
import { type ItemRef, LinkableItems, TicketLinksRepo } from "./Repo.js"

/**
 * What the audit log keeps of a link (everything but who and when, which the record itself says).
 * @since 0.1.0
 * @category utils
 */
export const ticketLinkValues = (
  link: Pick<TicketLink, "item_type" | "item_id" | "provider" | "ticket_id" | "ticket_url" | "title">
) => ({
  item_type: link.item_type,
  item_id: link.item_id,
  provider: link.provider,
  ticket_id: link.ticket_id,
  ticket_url: link.ticket_url,
  title: link.title
})

/**
 * @since 0.1.0
 * @category utils
 */
export const TicketLinkAudit = Audited.resource<TicketLink>("ticket_links", "ticket_links", ticketLinkValues)

/**
 * The area whose read access a linked item needs.
 * @since 0.1.0
 * @category constants
 */
export const AREA_OF_ITEM: Record<LinkableItemType, Area> = {
  insight: "insights",
  usage_group: "usage_groups",
  usage_group_set: "usage_groups",
  team: "teams",
  dw_account: "dw_accounts"
}

/**
 * Whether the actor may see items of this type: the operator may, a principal with read access to their area may.
 * @since 0.1.0
 * @category utils
 */
export const mayReadItem = (actor: Actor, itemType: LinkableItemType): Effect.Effect<void, Forbidden> => {
  const authority = authorityOf(actor)
  if (authority._tag === "Operator") return Effect.void
  if (authority._tag === "Unknown") return Effect.fail(unknownAuthority)
  const permission = Permissions.read(AREA_OF_ITEM[itemType])
  return Permissions.isAllowed(authority.principal, permission)
    ? Effect.void
    : Effect.fail(new Forbidden({ message: `not allowed to ${permission.action} ${permission.area}` }))
}

/**
 * @since 0.1.0
 * @category models
 */
export interface ListQuery {
  readonly item_type: LinkableItemType
  readonly item_id: string
  readonly pageToken?: string | undefined
  readonly maxResults?: number | undefined
}

/**
 * @since 0.1.0
 * @category tags
 */
export class TicketLinks extends Context.Tag("@costline/core/TicketLinks")<
  TicketLinks,
  {
    /**
     * An actor that may not read the item's area → Forbidden (audited as a failure); an item
     * unknown in the organization → NotFound; the same item, provider and ticket twice →
     * AlreadyExists.
     */
    readonly create: (
      actor: Actor,
      organizationId: OrganizationId,
      input: TicketLinkCreate
    ) => Effect.Effect<TicketLink, Forbidden | NotFound | AlreadyExists | StoreUnavailable>
    /** A link `reader` may see: NotFound when there is none, Forbidden when it may not read the item's area. */
    readonly get: (
      reader: Actor,
      organizationId: OrganizationId,
      id: TicketLinkId
    ) => Effect.Effect<TicketLink, Forbidden | NotFound | StoreUnavailable>
    /**
     * The item's links, oldest first; Forbidden when `reader` may not read the item's area, an
     * item unknown in the organization → NotFound.
     */
    readonly list: (
      reader: Actor,
      organizationId: OrganizationId,
      query: ListQuery
    ) => Effect.Effect<Page<TicketLink>, Forbidden | NotFound | InvalidPageToken | ValidationFailed | StoreUnavailable>
  }
>() {}

/**
 * @since 0.1.0
 * @category constructors
 */
export const make = Effect.gen(function*() {
  const repo = yield* TicketLinksRepo
  const items = yield* LinkableItems
  const cursors = yield* ListCursors
  const audit = yield* AuditLog
  const tx = yield* Transactor

  const requireItem = (item: ItemRef) =>
    Effect.flatMap(items.exists(item), (exists) =>
      exists ? Effect.void : Effect.fail(new NotFound({ resource: item.itemType, id: item.itemId })))

  const refused = (actor: Actor, organizationId: OrganizationId, entry: AuditEntry) => (error: Forbidden) =>
    Effect.zipRight(audit.record(actor, organizationId, { ...entry, status: "failure" }), Effect.fail(error))

  const create = (actor: Actor, organizationId: OrganizationId, input: TicketLinkCreate) =>
    Effect.zipRight(
      mayReadItem(actor, input.item_type).pipe(Effect.catchAll(refused(
        actor,
        organizationId,
        TicketLinkAudit.refused("create", null, ticketLinkValues({ ...input, title: input.title ?? null }))
      ))),
      insert(actor, organizationId, input)
    )

  const insert = (actor: Actor, organizationId: OrganizationId, input: TicketLinkCreate) =>
    tx.withTransaction(Effect.gen(function*() {
      yield* requireItem({ organizationId, itemType: input.item_type, itemId: input.item_id })
      const link = new TicketLink({
        id: yield* newId<"TicketLinkId">(),
        organization_id: organizationId,
        item_type: input.item_type,
        item_id: input.item_id,
        provider: input.provider,
        ticket_id: input.ticket_id,
        ticket_url: input.ticket_url,
        title: input.title ?? null,
        created_by: actor.changedBy,
        create_time: yield* DateTime.now
      })
      // The unique index decides, so two concurrent requests cannot both link the same ticket.
      yield* repo.insert(link).pipe(Effect.catchTag("AlreadyExists", () =>
        Effect.fail(
          new AlreadyExists({
            message: `${link.item_type} ${link.item_id} is already linked to ${link.provider} ticket ${link.ticket_id}`
          })
        )))
      yield* audit.record(actor, organizationId, TicketLinkAudit.created(link))
      return link
    }))

  const get = (reader: Actor, organizationId: OrganizationId, id: TicketLinkId) =>
    repo.findById(organizationId, id).pipe(
      orNotFound("ticket link", id),
      Effect.tap((link) => mayReadItem(reader, link.item_type))
    )

  const list = (reader: Actor, organizationId: OrganizationId, query: ListQuery) => {
    const item: ItemRef = { organizationId, itemType: query.item_type, itemId: query.item_id }
    return Effect.zipRight(mayReadItem(reader, query.item_type), cursors.keysetPage(
      organizationId,
      // The item is part of the binding: a token resumes only the list of the item it came from.
      `ticket_links:${item.itemType}:${item.itemId}`,
      { pageToken: query.pageToken, maxResults: query.maxResults ?? DEFAULT_PAGE_SIZE },
      { size: "query.max_results" },
      (window) => Effect.zipRight(requireItem(item), repo.listByItem(item, window)),
      (link) => keysetOf(link.create_time, link.id)
    ))
  }

  return TicketLinks.of({ create, get, list })
})

/**
 * @since 0.1.0
 * @category layers
 */
export const layer = Layer.effect(TicketLinks, make)
