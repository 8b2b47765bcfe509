/**
 * A usage filter's `ilike` (matched in JavaScript, see core's Like) means what SQL's
 * `lower(text) LIKE lower(pattern) ESCAPE '\'` means, as the audit log's `changed_by__ilike`
 * runs it in the store. SQLite folds case in ASCII only, so the alphabet is ASCII.
 */
import { UsageFilter } from "@costline/core"
import type { Usage } from "@costline/core"
import { SqliteStore } from "@costline/store-sqlite"
import { SqlClient } from "@effect/sql/SqlClient"
import { expect, layer } from "@effect/vitest"
import { Effect, FastCheck as fc } from "effect"

const sqlLike = (text: string, pattern: string) =>
  Effect.flatMap(SqlClient, (sql) => sql<{ readonly matched: number }>`SELECT lower(${text}) LIKE lower(${pattern}) ESCAPE '\\' AS matched`)
    .pipe(Effect.map(([row]) => row!.matched === 1))

const filterLike = (pattern: string, text: string) =>
  UsageFilter.compile(UsageFilter.and(UsageFilter.leaf(["user_name"], "ilike", pattern)))(
    { start_time: new Date(0), credits: 1, user_name: text } as Usage.UsageRecord
  )

// Multi-character pieces make long segments (past 32 characters: several words of state).
const pieces = ["a", "B", "%", "_", "\\%", "\\_", "\\\\", "ab", "aaaaaaaaaaaaaaaaaaaaaaaa"]

// The store's own SQLite client: the one the audit log's `changed_by__ilike` runs on.
layer(SqliteStore.layer({ filename: ":memory:" }))("ilike semantics", (it) => {
  it.effect.prop(
    "short patterns and texts over a tiny alphabet: every way segments can meet",
    {
      pattern: fc.array(fc.constantFrom("a", "B", "%", "_", "\\%"), { minLength: 1, maxLength: 8 }).map((parts) => parts.join("")),
      text: fc.string({ unit: fc.constantFrom("a", "A", "b", "%"), maxLength: 8 })
    },
    ({ pattern, text }) =>
      Effect.map(sqlLike(text, pattern), (matched) => {
        expect(filterLike(pattern, text)).toBe(matched)
      }),
    { fastCheck: { numRuns: 1500 }, timeout: 60_000 }
  )

  it.effect.prop(
    "a usage filter's ilike matches as SQL LIKE on lower-cased text and pattern",
    {
      pattern: fc.array(fc.constantFrom(...pieces), { minLength: 1, maxLength: 40 }).map((parts) => parts.join("")),
      text: fc.array(fc.constantFrom("a", "A", "b", "B", "%", "_", "\\", "aaaaaaaaaaaa", "ab"), { maxLength: 60 })
        .map((parts) => parts.join(""))
    },
    ({ pattern, text }) =>
      Effect.map(sqlLike(text, pattern), (matched) => {
        expect(filterLike(pattern, text)).toBe(matched)
      }),
    { fastCheck: { numRuns: 1000 }, timeout: 60_000 }
  )
})
