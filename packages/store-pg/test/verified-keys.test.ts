/**
 * Verified API keys on Postgres (core's Auth over the store's CredentialChanges, a LISTEN watcher
 * of its own): a key is read once and reused until a credential change is notified; while the
 * watcher is not connected nothing is reused, and its reconnection drops what was kept before;
 * closing the store never waits on a server that is gone.
 */
import { Actor, ApiKeys, Auth, Core } from "@costline/core"
import type { Identity } from "@costline/core"
import { countKeyReads, credentialStamp, freshOrganization } from "@costline/store-contract"
import { PgStore } from "@costline/store-pg"
import { SqlClient } from "@effect/sql/SqlClient"
import { expect, it } from "@effect/vitest"
import { Context, Duration, Effect, Exit, Layer, Scope, TestClock } from "effect"
import { startPostgres } from "../../../test-support/postgres/server.js"
import { useFreshDatabase } from "./support/database.js"

const url = useFreshDatabase()
const system = Actor.Actor.system()

/** Real time, whatever the test's clock: the watcher's connection runs on it. */
const pause = (ms: number) => Effect.promise(() => new Promise<void>((resolve) => setTimeout(resolve, ms)))

/** Polls `condition` until it holds, for at most 10 s of real time. */
const until = (what: string, condition: () => boolean) =>
  Effect.gen(function*() {
    const deadline = Date.now() + 10_000
    while (!condition()) {
      if (Date.now() > deadline) return yield* Effect.die(new Error(`timed out waiting until ${what}`))
      yield* pause(10)
    }
  })

/** As `until`, for a condition the database answers. */
const untilAnswered = <E, R>(what: string, condition: Effect.Effect<boolean, E, R>) =>
  Effect.gen(function*() {
    const deadline = Date.now() + 10_000
    while (!(yield* condition)) {
      if (Date.now() > deadline) return yield* Effect.die(new Error(`timed out waiting until ${what}`))
      yield* pause(10)
    }
  })

/** Core over a Postgres store whose key lookups are counted. */
const instance = (options: Omit<PgStore.PgStoreOptions, "url"> & { readonly url?: string } = {}) =>
  Effect.gen(function*() {
    const store = PgStore.layer({ url, ...options })
    const counted = countKeyReads(store)
    const context = yield* Layer.build(Core.layer.pipe(Layer.provideMerge(Layer.merge(store, counted.layer))))
    return {
      reads: counted.reads,
      stamp: credentialStamp(context as Context.Context<never>),
      run: <A, E, R>(effect: Effect.Effect<A, E, R>) => Effect.provide(effect, context)
    }
  })

const createKey = Effect.gen(function*() {
  const organization = yield* freshOrganization
  return yield* (yield* ApiKeys.ApiKeys).create(system, organization.id, { name: "ci", access: "admin", scopes: ["*"] })
})
const revoke = (key: Identity.ApiKey) =>
  Effect.flatMap(ApiKeys.ApiKeys, (apiKeys) => apiKeys.revoke(system, key.organization_id, key.id))
const authenticate = (token: string) => Effect.flatMap(Auth.Auth, (auth) => auth.authenticate(`Bearer ${token}`))
const refused = (token: string) => Effect.map(Effect.flip(authenticate(token)), (error) => error._tag)

it.live("a verified key is read once and reused; a revocation through another instance moves the stamp, and the next request is refused", () =>
  Effect.gen(function*() {
    const one = yield* instance()
    const two = yield* instance()
    yield* until("both watchers listen", () => one.stamp() !== undefined && two.stamp() !== undefined)
    const { key, token } = yield* one.run(createKey)

    yield* one.run(authenticate(token)) // reads the key and records its use, which notifies nobody
    for (let i = 0; i < 10; i++) expect((yield* one.run(authenticate(token)))._tag).toBe("ApiKey")
    expect(one.reads()).toBe(1)

    const before = one.stamp()
    yield* two.run(revoke(key))
    // Delivered when the revocation commits: the watcher moves the stamp on its arrival.
    yield* until("the notification arrives", () => one.stamp() !== before)
    expect(yield* one.run(refused(token))).toBe("Unauthorized")
    expect(one.reads()).toBe(2)
  }).pipe(Effect.scoped))

it.live("a key revoked through the same instance is refused at its next request, before the notification arrives", () =>
  Effect.gen(function*() {
    const one = yield* instance()
    yield* until("the watcher listens", () => one.stamp() !== undefined)
    const { key, token } = yield* one.run(createKey)
    for (let i = 0; i < 3; i++) yield* one.run(authenticate(token))
    yield* one.run(revoke(key))
    expect(yield* one.run(refused(token))).toBe("Unauthorized")
  }).pipe(Effect.scoped))

it.live("with the cache turned off there is no watcher: every request reads its key", () =>
  Effect.gen(function*() {
    const one = yield* instance({ verifiedKeyCache: false })
    const { token } = yield* one.run(createKey)
    for (let i = 0; i < 3; i++) yield* one.run(authenticate(token))
    expect(one.stamp()).toBeUndefined()
    expect(one.reads()).toBe(3)
  }).pipe(Effect.scoped))

// The TestClock holds the watcher's reconnection (its backoff sleeps on the clock) until adjusted.
it.scoped("while the watcher is disconnected nothing is reused, and a revocation made meanwhile is refused once it reconnects", () =>
  Effect.gen(function*() {
    const one = yield* instance()
    const two = yield* instance({ verifiedKeyCache: false })
    yield* until("the watcher listens", () => one.stamp() !== undefined)
    const { key, token } = yield* one.run(createKey)
    yield* one.run(authenticate(token))
    yield* one.run(authenticate(token))
    expect(one.reads()).toBe(1)

    const terminated = yield* two.run(Effect.flatMap(SqlClient, (sql) =>
      sql<{ readonly pid: number }>`SELECT pid FROM pg_stat_activity
        WHERE datname = current_database() AND application_name LIKE '%/credentials' AND pg_terminate_backend(pid)`))
    expect(terminated).toHaveLength(1)
    yield* until("the watcher sees its connection gone", () => one.stamp() === undefined)

    for (let i = 0; i < 3; i++) yield* one.run(authenticate(token))
    expect(one.reads()).toBe(4)
    // Nobody listens: this revocation's notification is lost.
    yield* two.run(revoke(key))
    expect(one.stamp()).toBeUndefined()

    // Past the first backoff (100 ms), well within VERIFIED_KEY_MAX_AGE: the bound is not what refuses it.
    yield* TestClock.adjust("1 second")
    yield* until("the watcher listens again", () => one.stamp() !== undefined)
    expect(yield* one.run(refused(token))).toBe("Unauthorized")
    expect(one.reads()).toBe(5)
  }))

// The TestClock holds the watcher's next look for the trigger until adjusted.
it.scoped("a database without the notifying trigger (not migrated to 1800) is not trusted: nothing is reused until it has it", () =>
  Effect.gen(function*() {
    const admin = yield* instance({ verifiedKeyCache: false })
    const unsafe = (statement: string) => admin.run(Effect.flatMap(SqlClient, (sql) => sql.unsafe(statement)))
    yield* unsafe(`ALTER TRIGGER api_keys_changed ON api_keys RENAME TO api_keys_changed_away`)
    const restore = unsafe(`ALTER TRIGGER api_keys_changed_away ON api_keys RENAME TO api_keys_changed`)
    yield* Effect.addFinalizer(() => Effect.ignore(restore))

    const one = yield* instance({ migrate: false })
    yield* untilAnswered(
      "the watcher has looked for the trigger",
      admin.run(Effect.flatMap(SqlClient, (sql) =>
        sql<{ readonly pid: number }>`SELECT pid FROM pg_stat_activity WHERE datname = current_database()
          AND application_name LIKE '%/credentials' AND state = 'idle' AND query LIKE '%pg_trigger%'`)).pipe(
        Effect.map((rows) => rows.length === 1)
      )
    )
    const { token } = yield* one.run(createKey)
    for (let i = 0; i < 3; i++) yield* one.run(authenticate(token))
    expect(one.stamp()).toBeUndefined()
    expect(one.reads()).toBe(3)

    yield* restore
    yield* TestClock.adjust("5 seconds")
    yield* until("the watcher listens", () => one.stamp() !== undefined)
    for (let i = 0; i < 3; i++) yield* one.run(authenticate(token))
    expect(one.reads()).toBe(4)
  }))

it.live("a stopped server turns the cache off until the watcher reconnects; closing with the server stopped does not hang", () =>
  Effect.gen(function*() {
    const server = yield* Effect.acquireRelease(
      Effect.promise(() => startPostgres()),
      (server) => Effect.promise(() => server.destroy())
    )
    const scope = yield* Scope.make()
    const one = yield* instance({ url: server.url }).pipe(Scope.extend(scope))
    yield* until("the watcher listens", () => one.stamp() !== undefined)
    const first = one.stamp()!

    yield* Effect.promise(() => server.stop())
    yield* until("the watcher sees the server gone", () => one.stamp() === undefined)
    yield* Effect.promise(() => server.start())
    yield* until("the watcher listens again", () => one.stamp() !== undefined)
    expect(one.stamp()!).toBeGreaterThan(first)

    yield* Effect.promise(() => server.stop())
    const closed = yield* Scope.close(scope, Exit.void).pipe(Effect.timeout(Duration.seconds(10)), Effect.exit)
    expect(Exit.isSuccess(closed)).toBe(true)
  }).pipe(Effect.scoped), 120_000)
