/**
 * NUL characters and unpaired surrogates in any text a request carries are a 422 at the field,
 * on both stores alike: Postgres would fail the statement (a 500) and SQLite would store them.
 */
import { PgStore } from "@costline/store-pg"
import { SqliteStore } from "@costline/store-sqlite"
import { layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { describe, expect } from "vitest"
import { startPostgres } from "./support/EmbeddedPostgres.js"
import { call, makeTestServer, seedTenant } from "./support/TestServer.js"

const stores = {
  sqlite: makeTestServer({ store: SqliteStore.layer({ filename: ":memory:" }) }),
  postgres: Layer.unwrapScoped(
    Effect.map(startPostgres, (postgres) => makeTestServer({ store: PgStore.layer({ url: postgres.url }) }))
  )
}

for (const [name, server] of Object.entries(stores)) {
  describe(name, () => {
    layer(server, { excludeTestServices: true, timeout: 120_000 })((it) => {
      it.effect("body text with a NUL or an unpaired surrogate is a 422 at the field, in both versions", () =>
        Effect.gen(function*() {
          const tenant = yield* seedTenant
          const auth = { token: tenant.adminKey, tenant: tenant.id }
          for (const bad of ["a\u0000b", "a\ud800b", "\udc00"]) {
            const v2 = yield* call("POST", "/v2/teams", { ...auth, json: { name: bad } })
            expect(v2.status).toBe(422)
            expect(v2.body.details).toEqual([
              { field: "body.name", issue: "invalid_value", message: "must not contain NUL characters or unpaired surrogates" }
            ])
            const v1 = yield* call("POST", `/api/${tenant.id}/teams`, { token: tenant.adminKey, json: { name: bad } })
            expect(v1.status).toBe(422)
            expect(v1.body.detail).toMatchObject([{ loc: ["body", "name"], type: "value_error" }])
          }
          // Anywhere in the body, keys included.
          const nested = yield* call("POST", "/v2/teams", { ...auth, json: { name: "ok", extra: { list: ["ok", { "k\u0000": 1 }] } } })
          expect(nested.status).toBe(422)
          expect(nested.body.details[0].field).toBe("body.extra.list[1]")
          // Nothing was written.
          const audit = yield* call("GET", "/v2/audit-logs?resource__in=teams", auth)
          expect(audit.body.items).toEqual([])
          // A paired surrogate (an emoji) is text like any other.
          expect((yield* call("POST", "/v2/teams", { ...auth, json: { name: "team \ud83d\ude80" } })).status).toBe(201)
        }))

      it.effect("a path id or a query filter with a NUL is a 422 there, reads included", () =>
        Effect.gen(function*() {
          const tenant = yield* seedTenant
          const auth = { token: tenant.adminKey, tenant: tenant.id }
          const byId = yield* call("GET", "/v2/teams/a%00b", auth)
          expect(byId.status).toBe(422)
          expect(byId.body.details).toMatchObject([{ field: "path.team_id", issue: "invalid_value" }])
          const filtered = yield* call("GET", "/v2/audit-logs?changed_by__ilike=a%00b", auth)
          expect(filtered.status).toBe(422)
          expect(filtered.body.details).toMatchObject([{ field: "query.changed_by__ilike", issue: "invalid_value" }])
          const v1 = yield* call("GET", `/api/${tenant.id}/teams/a%00b`, { token: tenant.adminKey })
          expect(v1.status).toBe(422)
          expect(v1.body.detail).toMatchObject([{ loc: ["path", "team_id"] }])
        }))
    })
  })
}
