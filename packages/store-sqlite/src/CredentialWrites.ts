/**
 * Which of this connection's own statements move the credential stamp (`SqliteClient.changeStamp`,
 * core's `CredentialChanges`): those that may change what a verified API key was read from.
 * Every other write (an insight, a team, an audit record) leaves the keys this process has
 * verified in use, as on Postgres, where only a change to `api_keys` is announced
 * (store-pg's `CredentialWatch`). Before, every commit moved it, so each request after a write
 * read its key again (issue 19).
 *
 * The rule errs towards moving: a write whose target it cannot name (DDL, a `WITH` prefix, a
 * schema-qualified or otherwise unusual name) counts. Writes by *other* connections are not seen
 * here: any commit by another connection moves the stamp (`PRAGMA data_version`).
 */

/**
 * The tables an API key's authority is read from (`api_keys`), and those whose rows a write can
 * reach it through: an organization (its keys' owner), sessions and users (not cached today,
 * counted so that a future cache of them is safe too).
 */
export const CREDENTIAL_TABLES: ReadonlySet<string> = new Set(["api_keys", "organizations", "sessions", "users"])

/**
 * Transaction control: it changes no row itself (what a ROLLBACK undoes was counted when it ran).
 * better-sqlite3 calls `BEGIN IMMEDIATE` a write: it takes the write lock.
 */
const TRANSACTION_CONTROL = /^\s*(?:BEGIN|COMMIT|END|ROLLBACK|SAVEPOINT|RELEASE)\b/i

/** The target of a plain INSERT, REPLACE, UPDATE or DELETE: the name right after its keywords. */
const DML_TARGET = /^\s*(?:INSERT(?:\s+OR\s+[A-Za-z]+)?\s+INTO|REPLACE\s+INTO|UPDATE(?:\s+OR\s+[A-Za-z]+)?|DELETE\s+FROM)\s+([^\s(]+)/i

/** A table name as written, without its quotes (`"insights"` → `insights`); undefined when it is qualified or odd. */
const plainName = (written: string): string | undefined => {
  const name = /^(["`[]?)([A-Za-z_][A-Za-z0-9_]*)(["`\]]?)$/.exec(written)
  if (name === null) return undefined
  const [, open, table, close] = name
  const paired = (open === "" && close === "") || (open === "\"" && close === "\"") || (open === "`" && close === "`") ||
    (open === "[" && close === "]")
  return paired ? table!.toLowerCase() : undefined
}

/**
 * Whether `sql`, a statement that writes (better-sqlite3's `readonly` is false), may change a
 * credential: true unless it is transaction control or a plain INSERT, REPLACE, UPDATE or
 * DELETE of a table outside CREDENTIAL_TABLES.
 */
export const mayChangeCredentials = (sql: string): boolean => {
  if (TRANSACTION_CONTROL.test(sql)) return false
  const target = DML_TARGET.exec(sql)
  if (target === null) return true
  const table = plainName(target[1]!)
  return table === undefined || CREDENTIAL_TABLES.has(table)
}
