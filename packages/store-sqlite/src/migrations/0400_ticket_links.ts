/**
 * Ticket links. No foreign key on the item: it lives in one of several tables (LinkableItems
 * checks it instead). The unique index refuses a second link of one item to one ticket.
 */
import { SqlClient } from "@effect/sql/SqlClient"
import { Effect } from "effect"

const statements = [
  `CREATE TABLE ticket_links (
    id TEXT PRIMARY KEY,
    organization_id TEXT NOT NULL REFERENCES organizations (id),
    item_type TEXT NOT NULL,
    item_id TEXT NOT NULL,
    provider TEXT NOT NULL,
    ticket_id TEXT NOT NULL,
    ticket_url TEXT NOT NULL,
    title TEXT,
    created_by TEXT NOT NULL,
    created_at TEXT NOT NULL
  ) STRICT`,
  `CREATE UNIQUE INDEX ticket_links_once_per_ticket
    ON ticket_links (organization_id, item_type, item_id, provider, ticket_id)`,
  // Serves the item's list, in its keyset order.
  `CREATE INDEX ticket_links_by_item ON ticket_links (organization_id, item_type, item_id, created_at, id)`
]

export default Effect.flatMap(SqlClient, (sql) => Effect.forEach(statements, (statement) => sql.unsafe(statement), { discard: true }))
