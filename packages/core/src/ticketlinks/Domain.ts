/**
 * Ticket links: an item of the organization (an insight, a usage group, a team, ...) linked to a
 * ticket in an external tracker. Field names are the API's (API-DECISIONS.md "Ticket links").
 */
import { Schema } from "effect"
import { OrganizationId } from "../shared/Ids.js"
import { storable } from "../shared/StorableText.js"

/**
 * @since 0.1.0
 * @category schemas
 */
export const TicketLinkId = Schema.UUID.pipe(Schema.brand("TicketLinkId"))
/**
 * @since 0.1.0
 * @category models
 */
export type TicketLinkId = typeof TicketLinkId.Type

/**
 * What a ticket can be linked to.
 * @since 0.1.0
 * @category schemas
 */
export const LinkableItemType = Schema.Literal("insight", "usage_group", "usage_group_set", "team", "dw_account")
/**
 * @since 0.1.0
 * @category models
 */
export type LinkableItemType = typeof LinkableItemType.Type

/**
 * @since 0.1.0
 * @category schemas
 */
export const TicketProvider = Schema.Literal("jira", "linear", "github", "servicenow", "other")
/**
 * @since 0.1.0
 * @category models
 */
export type TicketProvider = typeof TicketProvider.Type

const isHttpUrl = (text: string) => {
  try {
    const url = new URL(text)
    return (url.protocol === "http:" || url.protocol === "https:") && url.host.length > 0
  } catch {
    return false
  }
}

/**
 * Browsers and trackers cope with URLs up to about 2 KB; longer ones are not ticket links.
 * @since 0.1.0
 * @category constants
 */
export const MAX_TICKET_URL_LENGTH = 2048

/**
 * @since 0.1.0
 * @category schemas
 */
export const TicketUrl = storable(Schema.String).pipe(
  Schema.maxLength(MAX_TICKET_URL_LENGTH),
  Schema.filter(isHttpUrl, { message: () => "must be an absolute http or https URL" })
)

/**
 * Trimmed, so that `PROJ-1` and ` PROJ-1 ` are one ticket for the duplicate rule.
 * @since 0.1.0
 * @category utils
 */
export const TicketKey = storable(Schema.Trim).pipe(
  Schema.minLength(1, { message: () => "must not be empty" }),
  Schema.maxLength(256)
)

/**
 * Any text: an id that is not even well formed names no item, a 404 like any unknown id (the
 * API's rule for ids), not a 422.
 * @since 0.1.0
 * @category utils
 */
export const LinkedItemId = storable(Schema.String).pipe(Schema.minLength(1), Schema.maxLength(128))

/**
 * @since 0.1.0
 * @category models
 */
export class TicketLinkCreate extends Schema.Class<TicketLinkCreate>("TicketLinkCreate")({
  item_type: LinkableItemType,
  item_id: LinkedItemId,
  provider: TicketProvider,
  ticket_id: TicketKey,
  ticket_url: TicketUrl,
  title: Schema.optional(Schema.NullOr(storable(Schema.String).pipe(Schema.maxLength(500))))
}) {}

/**
 * @since 0.1.0
 * @category models
 */
export class TicketLink extends Schema.Class<TicketLink>("TicketLink")({
  id: TicketLinkId,
  organization_id: OrganizationId,
  item_type: LinkableItemType,
  item_id: Schema.String,
  provider: TicketProvider,
  ticket_id: Schema.String,
  ticket_url: Schema.String,
  title: Schema.NullOr(Schema.String),
  /** Who linked it, as the audit log names them: an email or `api_key:<name>`. */
  created_by: Schema.String,
  create_time: Schema.DateTimeUtc
}) {}
