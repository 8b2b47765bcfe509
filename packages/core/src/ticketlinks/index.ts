/** Ticket links: items of the organization linked to tickets in external trackers. */
export * from "./Domain.js"
export * from "./Repo.js"
export { AREA_OF_ITEM, type ListQuery as TicketLinkListQuery, mayReadItem, ticketLinkValues, TicketLinks } from "./TicketLinks.js"
