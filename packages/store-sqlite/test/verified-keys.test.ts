/**
 * Verified API keys on SQLite (core's Auth over the store's CredentialChanges): a key is read
 * from the store once and reused while nothing is committed to the file, by this connection or
 * another one, and for at most VERIFIED_KEY_MAX_AGE; expiry is checked on every request.
 */
import { Actor, ApiKeys, Auth, Core, CredentialChanges } from "@costline/core"
import { countKeyReads, freshOrganization } from "@costline/store-contract"
import { SqliteStore } from "@costline/store-sqlite"
import { SqlClient } from "@effect/sql/SqlClient"
import { expect, it } from "@effect/vitest"
import { Clock, DateTime, Duration, Effect, Layer, TestClock } from "effect"
import { useTempDirectory } from "./support/tempDatabase.js"

const databaseFile = useTempDirectory()
const system = Actor.Actor.system()
const bearer = (token: string) => `Bearer ${token}`

/** Core over a store whose key lookups are counted. */
const instance = (filename: string) =>
  Effect.gen(function*() {
    const store = SqliteStore.layer({ filename })
    const counted = countKeyReads(store)
    const context = yield* Layer.build(Core.layer.pipe(Layer.provideMerge(Layer.merge(store, counted.layer))))
    return {
      reads: counted.reads,
      run: <A, E>(effect: Effect.Effect<A, E, Layer.Layer.Success<typeof Core.layer> | SqlClient>) => Effect.provide(effect, context)
    }
  })

const createKey = (options: { readonly expiresAt?: DateTime.Utc } = {}) =>
  Effect.gen(function*() {
    const organization = yield* freshOrganization
    return yield* (yield* ApiKeys.ApiKeys).create(system, organization.id, { name: "ci", access: "admin", scopes: ["*"], ...options })
  })

const authenticate = (token: string) => Effect.flatMap(Auth.Auth, (auth) => auth.authenticate(bearer(token)))
const refused = (token: string) => Effect.map(Effect.flip(authenticate(token)), (error) => error._tag)

it.scoped("a verified key is reused while nothing is committed; a commit elsewhere sends the next request to the store", () =>
  Effect.gen(function*() {
    const filename = databaseFile("reuse.db")
    const one = yield* instance(filename)
    const two = yield* instance(filename)
    const { key, token } = yield* one.run(createKey())

    yield* one.run(authenticate(token)) // reads the key, records its use (a write)
    yield* one.run(authenticate(token)) // reads it again: the write moved the stamp
    const afterWarmUp = one.reads()
    for (let i = 0; i < 5; i++) expect((yield* one.run(authenticate(token)))._tag).toBe("ApiKey")
    expect(one.reads()).toBe(afterWarmUp)

    // Revoked through another connection to the file: the very next request reads the key again.
    yield* two.run(Effect.flatMap(ApiKeys.ApiKeys, (apiKeys) => apiKeys.revoke(system, key.organization_id, key.id)))
    expect(yield* one.run(refused(token))).toBe("Unauthorized")
    expect(one.reads()).toBe(afterWarmUp + 1)
  }))

it.scoped("a key revoked through the same instance is refused at its next request", () =>
  Effect.gen(function*() {
    const one = yield* instance(databaseFile("same.db"))
    const { key, token } = yield* one.run(createKey())
    for (let i = 0; i < 3; i++) yield* one.run(authenticate(token))
    yield* one.run(Effect.flatMap(ApiKeys.ApiKeys, (apiKeys) => apiKeys.revoke(system, key.organization_id, key.id)))
    expect(yield* one.run(refused(token))).toBe("Unauthorized")
  }))

it.scoped("this instance's own writes keep verified keys unless they may change a credential", () =>
  Effect.gen(function*() {
    const one = yield* instance(databaseFile("own-writes.db"))
    const { token } = yield* one.run(createKey())
    yield* one.run(authenticate(token)) // reads the key, records its use (a write to api_keys)
    yield* one.run(authenticate(token)) // reads it again: that write may have changed it
    const cached = one.reads()
    const write = (statement: string) => one.run(Effect.flatMap(SqlClient, (sql) => sql.unsafe(statement)))

    // Writes elsewhere (an insight's update with RETURNING, an audit record's insert) change no key.
    yield* write(`UPDATE insights SET title = title WHERE 0 RETURNING id`)
    yield* write(`DELETE FROM audit_records WHERE 0`)
    yield* one.run(authenticate(token))
    expect(one.reads()).toBe(cached)

    // A write to api_keys may, even one that changed no row, and so may one the rule cannot read.
    // Outside a transaction too, and with RETURNING (which better-sqlite3 runs as a reader).
    yield* write(`UPDATE api_keys SET name = name WHERE 0`)
    yield* one.run(authenticate(token))
    expect(one.reads()).toBe(cached + 1)
    yield* write(`UPDATE api_keys SET name = name WHERE 0 RETURNING id`)
    yield* one.run(authenticate(token))
    expect(one.reads()).toBe(cached + 2)
    yield* write(`WITH unused AS (SELECT 1) UPDATE insights SET title = title WHERE 0`)
    yield* one.run(authenticate(token))
    expect(one.reads()).toBe(cached + 3)
  }))

it.scoped("a verification is reused for at most VERIFIED_KEY_MAX_AGE; expiry is checked on every request", () =>
  Effect.gen(function*() {
    const one = yield* instance(databaseFile("bound.db"))
    const expiresAt = DateTime.add(yield* DateTime.now, { seconds: 8 })
    const { token } = yield* one.run(createKey({ expiresAt }))
    yield* one.run(authenticate(token))
    yield* one.run(authenticate(token))
    const cached = one.reads()

    yield* TestClock.adjust(Duration.subtract(CredentialChanges.VERIFIED_KEY_MAX_AGE, Duration.millis(1)))
    yield* one.run(authenticate(token))
    expect(one.reads()).toBe(cached)
    yield* TestClock.adjust(Duration.millis(1))
    yield* one.run(authenticate(token))
    expect(one.reads()).toBe(cached + 1)

    // Expired while its verification is still fresh: refused without asking the store.
    yield* TestClock.adjust("3 seconds")
    expect(yield* one.run(refused(token))).toBe("Unauthorized")
    expect(one.reads()).toBe(cached + 1)
  }))

/** `Auth.authenticateCached` of a bearer token at the test clock's now. */
const cached = (authorization: string | undefined) =>
  Effect.flatMap(Auth.Auth, (auth) => Effect.map(Clock.currentTimeMillis, (nowMs) => auth.authenticateCached(authorization, nowMs)))

it.scoped("authenticateCached answers what authenticate answers when no store read or write is due, and nothing otherwise", () =>
  Effect.gen(function*() {
    const filename = databaseFile("cached.db")
    const one = yield* instance(filename)
    const two = yield* instance(filename)
    const expiresAt = DateTime.add(yield* DateTime.now, { seconds: 4 })
    const { key, token } = yield* one.run(createKey({ expiresAt }))

    // Never verified here: the store must be asked.
    expect(yield* one.run(cached(bearer(token)))).toBeUndefined()
    yield* one.run(authenticate(token)) // reads the key, records its use (a write)
    yield* one.run(authenticate(token)) // reads it again: that write may have changed it
    const reads = one.reads()
    const principal = yield* one.run(authenticate(token))
    expect(yield* one.run(cached(bearer(token)))).toStrictEqual(principal)
    expect(one.reads()).toBe(reads)

    // What is never a cached key's: no credential, another scheme, a malformed or unknown token.
    for (const authorization of [undefined, "", `Basic ${token}`, "Bearer", "Bearer not-a-token", `Bearer ${token}x`]) {
      expect(yield* one.run(cached(authorization))).toBeUndefined()
    }

    // Expired while its verification is fresh: not answered (authenticate refuses it).
    yield* TestClock.adjust("4 seconds")
    expect(yield* one.run(cached(bearer(token)))).toBeUndefined()
    expect(yield* one.run(refused(token))).toBe("Unauthorized")

    // A key revoked through another connection: the stamp moved, so it is the store's to answer.
    const other = yield* one.run(createKey())
    yield* one.run(authenticate(other.token))
    yield* one.run(authenticate(other.token))
    expect((yield* one.run(cached(bearer(other.token))))?._tag).toBe("ApiKey")
    yield* two.run(Effect.flatMap(ApiKeys.ApiKeys, (apiKeys) => apiKeys.revoke(system, other.key.organization_id, other.key.id)))
    expect(yield* one.run(cached(bearer(other.token)))).toBeUndefined()
    expect(yield* one.run(refused(other.token))).toBe("Unauthorized")
    expect(key.id).not.toBe(other.key.id)
  }))
