/**
 * The real server (node:http on a free port, the whole pipeline) over an in-memory SQLite store,
 * plus core's services on the same store for seeding. Requests go through `fetch`.
 */
import { HttpServer } from "@effect/platform"
import { CodeChangesDeterministic, QueryAnalyzerLive, SqlWorkersLive } from "@costline/analysis"
import { Actor, ApiKeys, Core, Organizations, Sessions, Users } from "@costline/core"
import type { Identity, Ids } from "@costline/core"
import { contractSecrets } from "@costline/store-contract"
import { serve, type ServeOptions } from "@costline/http"
import { SqliteStore } from "@costline/store-sqlite"
import { Effect, Layer, TestClock, TestContext } from "effect"
import { randomUUID } from "node:crypto"

export const makeTestServer = (
  options: Omit<ServeOptions<unknown>, "store" | "port"> & { readonly store?: Layer.Layer<Core.Repositories, unknown> } = {}
) => {
  const store = options.store ?? SqliteStore.layer({ filename: ":memory:" })
  // Never the environment's: a developer's COSTLINE_* settings must not change what tests see.
  const secrets = options.secrets ?? contractSecrets
  const analysis = options.analysis ??
    QueryAnalyzerLive.pipe(Layer.provideMerge(CodeChangesDeterministic), Layer.provide(SqlWorkersLive({ size: 1 })))
  return Layer.mergeAll(
    // No rate limit unless a test asks: a burst of test requests on one key must not meet 429s.
    // Nor a failed-authentication limit: the tests of bad credentials all come from 127.0.0.1.
    serve({ accessLog: false, rateLimit: false, authFailureLimit: false, ...options, port: 0, store, secrets, analysis }),
    Core.layerWithSecrets.pipe(Layer.provide(store), Layer.provide(secrets))
  )
}

export const baseUrl = Effect.flatMap(HttpServer.HttpServer, (server) =>
  server.address._tag === "TcpAddress"
    ? Effect.succeed(`http://127.0.0.1:${server.address.port}`)
    : Effect.dieMessage("the test server listens on a TCP port"))

export interface CallOptions {
  readonly token?: string
  readonly tenant?: string
  /** Sent as JSON. */
  readonly json?: unknown
  /** Sent as is (for malformed bodies). */
  readonly body?: string
  readonly headers?: Record<string, string>
}

export interface Reply {
  readonly status: number
  readonly headers: Headers
  readonly text: string
  /** Parsed JSON, inspected freely by the assertions. */
  readonly body: any
}

export const call = (method: string, path: string, options: CallOptions = {}) =>
  Effect.gen(function*() {
    const url = `${yield* baseUrl}${path}`
    const headers: Record<string, string> = {
      ...(options.token === undefined ? {} : { authorization: `Bearer ${options.token}` }),
      ...(options.tenant === undefined ? {} : { "x-tenant-id": options.tenant }),
      ...(options.json === undefined ? {} : { "content-type": "application/json" }),
      ...options.headers
    }
    const body = options.json === undefined ? options.body : JSON.stringify(options.json)
    const response = yield* Effect.promise(() => fetch(url, { method, headers, ...(body === undefined ? {} : { body }) }))
    const text = yield* Effect.promise(() => response.text())
    const contentType = response.headers.get("content-type") ?? ""
    return {
      status: response.status,
      headers: response.headers,
      text,
      body: contentType.includes("json") && text.length > 0 ? JSON.parse(text) : undefined
    } satisfies Reply
  })

/** A fresh organization with an admin API key; more credentials on demand. */
export const seedTenant = Effect.gen(function*() {
  const organizations = yield* Organizations.Organizations
  const apiKeys = yield* ApiKeys.ApiKeys
  const users = yield* Users.Users
  const sessions = yield* Sessions.Sessions
  const id = `org-${randomUUID().slice(0, 8)}` as Ids.OrganizationId
  yield* organizations.create({ id, name: id })

  const apiKey = (access: Identity.Access, scopes: ReadonlyArray<string> = ["*"]) =>
    Effect.map(
      apiKeys.create(Actor.Actor.system(), id, { name: `${access}-${randomUUID().slice(0, 4)}`, access, scopes }),
      ({ token }) => token
    )
  const userSession = (role: Identity.Role) =>
    Effect.gen(function*() {
      const email = `${role}-${randomUUID().slice(0, 6)}@example.com`
      yield* users.add(Actor.Actor.system(), id, { email, role })
      const { token } = yield* sessions.create(id, email)
      return { email, token }
    })

  return { id, adminKey: yield* apiKey("admin"), apiKey, userSession }
})

/** Runs `effect` with the clock stopped at `iso`: what it records or mints carries that time. */
export const at = (iso: string) => <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
  Effect.zipRight(TestClock.setTime(Date.parse(iso)), effect).pipe(Effect.provide(TestContext.TestContext))
