/** SQLite files in a temporary directory of the test file, removed after its tests. */
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll } from "vitest"

export const useTempDirectory = (): ((name: string) => string) => {
  const directory = mkdtempSync(join(tmpdir(), "costline-sqlite-"))
  afterAll(() => rmSync(directory, { recursive: true, force: true }))
  return (name) => join(directory, name)
}
