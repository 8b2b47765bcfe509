/**
 * `COSTLINE_KEY_CACHE=off`: on Postgres the store opens no credential watcher, so core keeps no
 * verified keys (behind pgbouncer in transaction mode `LISTEN` does not work). Unset, it does.
 */
import { storeLayer } from "@costline/cli"
import { CredentialChanges } from "@costline/core"
import { Context, Effect, Layer, Option } from "effect"
import { afterAll, beforeAll, expect, it, vi } from "vitest"
import { type PostgresServer, startPostgres } from "../../../test-support/postgres/server.js"

let server: PostgresServer
beforeAll(async () => {
  server = await startPostgres()
})
afterAll(async () => {
  await server?.destroy()
})

/** Whether the store layer the CLI builds provides core's CredentialChanges. */
const watches = () =>
  Effect.runPromise(
    Layer.build(storeLayer({ _tag: "postgres", url: server.url })).pipe(
      Effect.map((context) => Option.isSome(Context.getOption(context as Context.Context<never>, CredentialChanges.CredentialChanges))),
      Effect.scoped
    )
  )

it("COSTLINE_KEY_CACHE=off turns the Postgres credential watcher (and the key cache) off; unset, it is on", async () => {
  vi.stubEnv("COSTLINE_KEY_CACHE", "off")
  try {
    expect(await watches()).toBe(false)
  } finally {
    vi.unstubAllEnvs()
  }
  vi.stubEnv("COSTLINE_KEY_CACHE", "")
  try {
    expect(await watches()).toBe(true)
  } finally {
    vi.unstubAllEnvs()
  }
})
