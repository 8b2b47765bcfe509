/** What callers see when SQLite cannot serve them: typed StoreUnavailable, never a partial write. */
import { Core, Ids, Organizations } from "@costline/core"
import { freshOrganization } from "@costline/store-contract"
import { SqliteStore } from "@costline/store-sqlite"
import { expect, it } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { holdWriteLock } from "../../../test-support/sqliteLockHolder.js"
import { useTempDirectory } from "./support/tempDatabase.js"

const databaseFile = useTempDirectory()

it.live("a file that cannot be opened is StoreUnavailable", () =>
  Effect.gen(function*() {
    const error = yield* Effect.flip(Layer.build(SqliteStore.layer({ filename: databaseFile("missing/dir/x.db") })))
    expect(error._tag).toBe("StoreUnavailable")
  }).pipe(Effect.scoped))

it.live("while another process holds the write lock, reads go on and a write is StoreUnavailable after busyTimeout", () =>
  Effect.gen(function*() {
    const filename = databaseFile("locked.db")
    const store = yield* Layer.build(
      Core.layer.pipe(Layer.provideMerge(SqliteStore.layer({ filename, busyTimeout: "50 millis" })))
    )
    const organizations = yield* Effect.provide(Organizations.Organizations, store)
    const existing = yield* Effect.provide(freshOrganization, store)

    const holder = yield* holdWriteLock(filename)
    expect(yield* organizations.get(existing.id)).toEqual(existing)
    const refused = yield* Effect.flip(organizations.create({ id: "blocked", name: "Blocked" }))
    expect(refused._tag).toBe("StoreUnavailable")

    yield* holder.release
    expect((yield* Effect.flip(organizations.get(Ids.OrganizationId.make("blocked"))))._tag).toBe("NotFound")
    yield* organizations.create({ id: "blocked", name: "Blocked" })
  }).pipe(Effect.scoped))
