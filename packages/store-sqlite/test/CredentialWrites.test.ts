/**
 * Which of the connection's own writes move the credential stamp: the rule on statement texts,
 * and the schema's side of it (no trigger writes a credential table from another table).
 */
import { SqliteStore } from "@costline/store-sqlite"
import { SqlClient } from "@effect/sql/SqlClient"
import { expect, it } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { CREDENTIAL_TABLES, mayChangeCredentials } from "../src/CredentialWrites.js"

it("a plain write of a table outside the credential tables does not count", () => {
  for (
    const sql of [
      `UPDATE insights SET "status" = ?, "etag" = ? WHERE organization_id = ? AND id = ? RETURNING id`,
      `INSERT INTO audit_records ("id","organization_id") VALUES (?,?)`,
      `insert or replace into "teams" (id) values (?)`,
      `REPLACE INTO [usage_records] (id) VALUES (?)`,
      `DELETE FROM \`ticket_links\` WHERE id = ?`,
      `  UPDATE OR IGNORE insights SET title = ?`,
      // A table whose name starts like a credential table's is another table.
      `INSERT INTO api_keys_archive (id) VALUES (?)`,
      `UPDATE users_seen SET n = n + 1`,
      // Transaction control (better-sqlite3 calls BEGIN IMMEDIATE a write: it takes the lock).
      `BEGIN IMMEDIATE`,
      `COMMIT`,
      `ROLLBACK`,
      `SAVEPOINT costline_1`,
      `ROLLBACK TO SAVEPOINT costline_1`,
      `RELEASE SAVEPOINT costline_1`
    ]
  ) expect(mayChangeCredentials(sql), sql).toBe(false)
})

it("a write of a credential table counts, however it is spelled", () => {
  for (
    const sql of [
      `UPDATE api_keys SET revoked_at = ? WHERE organization_id = ? AND id = ? AND revoked_at IS NULL RETURNING id`,
      `UPDATE api_keys SET last_used_at = ? WHERE id = ?`,
      `INSERT INTO api_keys (id) VALUES (?)`,
      `update "API_KEYS" set name = ?`,
      `DELETE FROM organizations WHERE id = ?`,
      `UPDATE sessions SET revoked_at = ? WHERE id = ? RETURNING id`,
      `INSERT OR REPLACE INTO users (id) VALUES (?)`,
      `REPLACE INTO [sessions] (id) VALUES (?)`
    ]
  ) expect(mayChangeCredentials(sql), sql).toBe(true)
})

it("a write whose target the rule cannot name counts", () => {
  for (
    const sql of [
      `WITH gone AS (SELECT id FROM organizations) DELETE FROM insights WHERE organization_id IN gone`,
      `UPDATE main.api_keys SET revoked_at = ?`,
      `UPDATE "main"."insights" SET title = ?`,
      `UPDATE "insights SET title = ?`,
      `DROP TABLE api_keys`,
      `ALTER TABLE insights ADD COLUMN x TEXT`,
      `CREATE TABLE notes (text TEXT)`,
      `INSERT INTO`
    ]
  ) expect(mayChangeCredentials(sql), sql).toBe(true)
})

it.effect("no trigger of the schema writes a credential table (the rule reads only the statement's own target)", () =>
  Effect.gen(function*() {
    const sql = yield* SqlClient
    const triggers = yield* sql<{ readonly name: string; readonly tbl_name: string; readonly sql: string }>`
      SELECT name, tbl_name, sql FROM sqlite_master WHERE type = 'trigger'`
    const credential = new RegExp(`\\b(${[...CREDENTIAL_TABLES].join("|")})\\b`, "i")
    const reaching = triggers.filter((trigger) => !CREDENTIAL_TABLES.has(trigger.tbl_name.toLowerCase()) && credential.test(trigger.sql))
    expect(reaching.map((trigger) => trigger.name)).toEqual([])
  }).pipe(Effect.provide(Layer.fresh(SqliteStore.layer({ filename: ":memory:" })))))

it.effect("every table a credential table references is a credential table too (a change there can reach a key)", () =>
  Effect.gen(function*() {
    const sql = yield* SqlClient
    const parents: Array<string> = []
    for (const table of CREDENTIAL_TABLES) {
      const keys = yield* sql<{ readonly table: string }>`SELECT "table" FROM pragma_foreign_key_list(${table})`
      parents.push(...keys.map((key) => key.table.toLowerCase()))
    }
    expect(parents.length).toBeGreaterThan(0)
    expect(parents.filter((parent) => !CREDENTIAL_TABLES.has(parent))).toEqual([])
  }).pipe(Effect.provide(Layer.fresh(SqliteStore.layer({ filename: ":memory:" })))))

