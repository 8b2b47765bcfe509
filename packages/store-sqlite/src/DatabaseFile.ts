/**
 * The database file is created readable by its owner only (mode 0600) before SQLite opens it:
 * it holds sealed credentials, hashed tokens and the audit trail. SQLite creates the WAL and
 * shared-memory files with the database file's own permissions, so they follow. An existing
 * file keeps the mode its owner gave it.
 */
import { closeSync, openSync } from "node:fs"

export const FILE_MODE = 0o600

/** `:memory:` and SQLite's other special names are not files. */
const isFile = (filename: string) => filename !== "" && filename !== ":memory:" && !filename.startsWith("file:")

export const createPrivately = (filename: string): void => {
  if (!isFile(filename)) return
  // `a` creates the file when missing (with `mode`) and never truncates or re-modes an existing one.
  closeSync(openSync(filename, "a", FILE_MODE))
}
