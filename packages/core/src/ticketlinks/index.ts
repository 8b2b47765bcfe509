/** Ticket links: items of the organization linked to tickets in external trackers. */
export * from "./Domain.js"
export * from "./Repo.js"
export { type ListQuery as TicketLinkListQuery, ticketLinkValues, TicketLinks } from "./TicketLinks.js"
