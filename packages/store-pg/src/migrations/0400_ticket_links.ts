/**
 * Ticket links. No foreign key on the item: it lives in one of several tables (LinkableItems
 * checks it instead). The unique index refuses a second link of one item to one ticket.
 */
import { SqlClient } from "@effect/sql/SqlClient"
import { Effect } from "effect"

const statements = [
  `CREATE TABLE ticket_links (
    id text PRIMARY KEY,
    organization_id text NOT NULL REFERENCES organizations (id),
    item_type text NOT NULL,
    item_id text NOT NULL,
    provider text NOT NULL,
    ticket_id text NOT NULL,
    ticket_url text NOT NULL,
    title text,
    created_by text NOT NULL,
    created_at timestamptz NOT NULL
  )`,
  `CREATE UNIQUE INDEX ticket_links_once_per_ticket
    ON ticket_links (organization_id, item_type, item_id, provider, ticket_id)`,
  // Serves the item's list, in its keyset order.
  `CREATE INDEX ticket_links_by_item ON ticket_links (organization_id, item_type, item_id, created_at, id)`
]

export default Effect.flatMap(SqlClient, (sql) => Effect.forEach(statements, (statement) => sql.unsafe(statement), { discard: true }))
