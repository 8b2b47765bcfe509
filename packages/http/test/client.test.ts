/**
 * The typed client (`@costline/http/client`) against the real server: calls typed by the API
 * definition, errors as `ApiProblem`, and the audit poller's exactly-once cursor.
 */
import { FetchHttpClient, FileSystem } from "@effect/platform"
import { NodeFileSystem } from "@effect/platform-node"
import { ApiProblem, AuditPoller, make as makeClient } from "@costline/http/client"
import { CostlineApi } from "@costline/http"
import { DEFAULTED, defaultedMembers } from "../src/client/Defaults.js"
import { layer } from "@effect/vitest"
import { Chunk, Effect, Fiber, Layer, Option, Queue, TestClock } from "effect"
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, describe, expect } from "vitest"
import { baseUrl, makeTestServer, seedTenant } from "./support/TestServer.js"

const directory = mkdtempSync(join(tmpdir(), "costline-client-"))
afterAll(() => rmSync(directory, { recursive: true, force: true }))
let files = 0
const stateFile = () => join(directory, `state-${++files}.json`)

/** A tenant, a client for it, and a way to add audit records (one team each). */
const setup = Effect.gen(function*() {
  const tenant = yield* seedTenant
  const client = yield* makeClient({ baseUrl: yield* baseUrl, token: tenant.adminKey, tenant: tenant.id })
  let teams = 0
  const addRecords = (count: number) =>
    Effect.forEach(Array.from({ length: count }), () =>
      client.teams.createTeam({ payload: { name: `Team ${++teams}`, is_all_users: false, default_member_role: "viewer" } }))
  // Seeding audited the tenant's first key already.
  const existing = (yield* client.audit.exportAuditLogs({ urlParams: { max_results: 500, sort_order: "asc" } })).items.length
  return { tenant, client, addRecords, existing }
})

const collector = () => {
  const seen: Array<string> = []
  return { seen, deliver: (records: ReadonlyArray<AuditPoller.AuditRecord>) => Effect.sync(() => seen.push(...records.map((record) => record.id))) }
}

const Clients = Layer.mergeAll(FetchHttpClient.layer, NodeFileSystem.layer)

describe("typed client", () => {
  layer(Layer.merge(makeTestServer(), Clients), { excludeTestServices: true })((it) => {
    it.effect("calls endpoints with the definition's types, credential and tenant set once", () =>
      Effect.gen(function*() {
        const { client } = yield* setup
        const team = yield* client.teams.createTeam({ payload: { name: "Platform", is_all_users: false, default_member_role: "editor" } })
        expect(team.name).toBe("Platform")
        const page = yield* client.audit.exportAuditLogs({ urlParams: { max_results: 10, sort_order: "asc" } })
        expect(page.items.map((record) => record.record_id)).toContain(team.id)
      }))

    it.effect("leaves out what the server defaults: sort_by, sort_order, scope, max_results, optional headers", () =>
      Effect.gen(function*() {
        const { client } = yield* setup
        yield* client.teams.createTeam({ payload: { name: "Defaults", is_all_users: false, default_member_role: "viewer" } })
        // No urlParams at all: the server's defaults (oldest first, 50 a page).
        const all = yield* client.audit.exportAuditLogs()
        const explicit = yield* client.audit.exportAuditLogs({ urlParams: { max_results: 50, sort_order: "asc" } })
        expect(all.items.map((record) => record.id)).toEqual(explicit.items.map((record) => record.id))
        const newestFirst = yield* client.audit.exportAuditLogs({ urlParams: { sort_order: "desc" } })
        expect(newestFirst.items.map((record) => record.id)).toEqual([...explicit.items.map((record) => record.id)].reverse())
        // sort_by, sort_order, max_results left out; scope left out.
        expect((yield* client.insights.listInsights({ urlParams: { status__in: ["open"] } })).items).toEqual([])
        expect((yield* client.insights.listInsights()).items).toEqual([])
        expect((yield* client.usageGroups.listUsageDimensions()).scope).toBe("organization")
        expect((yield* client.usageGroups.listUsageDimensions({ urlParams: { scope: "team" } })).scope).toBe("team")
        // An endpoint whose only header is optional (If-Match on a team update) needs no `headers`.
        const team = yield* client.teams.createTeam({ payload: { name: "Renamed soon", is_all_users: false, default_member_role: "viewer" } })
        const renamed = yield* client.teams.updateTeam({ path: { team_id: team.id }, payload: { name: "Renamed" } })
        expect(renamed.name).toBe("Renamed")
      }))

    it.effect("knows every parameter and header the definition defaults (the types list them by name)", () =>
      Effect.sync(() => {
        const defaulted = new Set<PropertyKey>()
        for (const group of Object.values(CostlineApi.groups)) {
          for (const endpoint of Object.values(group.endpoints)) {
            for (const schema of [endpoint.urlParamsSchema, endpoint.headersSchema]) {
              if (schema._tag === "Some") for (const name of defaultedMembers(schema.value.ast)) defaulted.add(name)
            }
          }
        }
        expect([...defaulted].sort()).toEqual([...DEFAULTED].sort())
      }))

    it.effect("fails with ApiProblem: code, detail, fields and request id, in both versions", () =>
      Effect.gen(function*() {
        const { client, tenant } = yield* setup
        const invalid = yield* Effect.flip(client.audit.exportAuditLogs({ urlParams: { max_results: 10, sort_order: "asc", page_token: "garbage" } }))
        expect(invalid).toBeInstanceOf(ApiProblem)
        expect(invalid).toMatchObject({ status: 400, code: "invalid_page_token", retryAfterSeconds: null })
        expect((invalid as ApiProblem).requestId).not.toBeNull()

        const v1 = yield* Effect.flip(client.teamsV1.createTeam({
          path: { organization_id: "another-org" },
          payload: { name: "Elsewhere", is_all_users: false, default_member_role: "editor" }
        }))
        expect(v1).toMatchObject({ status: 403, code: "forbidden" })

        const stranger = yield* makeClient({ baseUrl: yield* baseUrl, token: "clk_not-a-key", tenant: tenant.id })
        const unauthorized = yield* Effect.flip(stranger.audit.exportAuditLogs({ urlParams: { max_results: 10, sort_order: "asc" } }))
        expect(unauthorized).toMatchObject({ status: 401, code: "unauthorized" })
        expect((unauthorized as ApiProblem).transient).toBe(false)
      }))
  })
})

describe("audit poller", () => {
  layer(Layer.merge(makeTestServer(), Clients), { excludeTestServices: true })((it) => {
    it.effect("delivers every record once across restarts that share a state file", () =>
      Effect.gen(function*() {
        const { addRecords, client, existing } = yield* setup
        const path = stateFile()
        const { deliver, seen } = collector()
        yield* addRecords(5)
        expect(yield* AuditPoller.catchUp(client, AuditPoller.fileCursor(path), deliver, { pageSize: 2 })).toBe(existing + 5)
        // A new process: a new cursor over the same file.
        expect(yield* AuditPoller.catchUp(client, AuditPoller.fileCursor(path), deliver, { pageSize: 2 })).toBe(0)
        yield* addRecords(3)
        expect(yield* AuditPoller.catchUp(client, AuditPoller.fileCursor(path), deliver, { pageSize: 2 })).toBe(3)
        const all = yield* client.audit.exportAuditLogs({ urlParams: { max_results: 500, sort_order: "asc" } })
        expect(seen).toEqual(all.items.map((record) => record.id))
      }))

    it.effect("a page whose delivery fails is not skipped: the cursor moves only past delivered pages", () =>
      Effect.gen(function*() {
        const { addRecords, client, existing } = yield* setup
        const path = stateFile()
        yield* addRecords(6 - existing)
        const { deliver, seen } = collector()
        let pages = 0
        const failingOnSecondPage = (records: ReadonlyArray<AuditPoller.AuditRecord>) =>
          ++pages === 2 ? Effect.fail("consumer down" as const) : deliver(records)
        expect(yield* Effect.flip(AuditPoller.catchUp(client, AuditPoller.fileCursor(path), failingOnSecondPage, { pageSize: 2 })))
          .toBe("consumer down")
        expect(seen).toHaveLength(2)
        yield* AuditPoller.catchUp(client, AuditPoller.fileCursor(path), deliver, { pageSize: 2 })
        expect(seen).toHaveLength(6)
        expect(new Set(seen).size).toBe(6)
      }))

    it.effect("writes its state atomically, as JSON, leaving no temporary file", () =>
      Effect.gen(function*() {
        const { addRecords, client } = yield* setup
        const path = stateFile()
        yield* addRecords(1)
        yield* AuditPoller.catchUp(client, AuditPoller.fileCursor(path), () => Effect.void)
        expect(JSON.parse(readFileSync(path, "utf8"))).toEqual({ page_token: expect.any(String) })
        expect(readdirSync(directory).filter((name) => name.endsWith(".tmp"))).toEqual([])
        const fs = yield* FileSystem.FileSystem
        expect((yield* fs.stat(path)).mode & 0o777).toBe(0o600)
      }))

    it.effect("refuses a state file it did not write rather than guess where to resume", () =>
      Effect.gen(function*() {
        const { client } = yield* setup
        const path = stateFile()
        writeFileSync(path, "not json")
        const error = yield* Effect.flip(AuditPoller.catchUp(client, AuditPoller.fileCursor(path), () => Effect.void))
        expect(error).toMatchObject({ _tag: "CorruptStateFile", path })
      }))
  })

  layer(Layer.merge(makeTestServer(), Clients))("following", (it) => {
    it.effect("keeps polling: records written later are delivered after the next pause", () =>
      Effect.gen(function*() {
        const { addRecords, client } = yield* setup
        const delivered = yield* Queue.unbounded<string>()
        const cursor = AuditPoller.memoryCursor()
        yield* addRecords(1)
        const follower = yield* Effect.fork(AuditPoller.follow(
          client,
          cursor,
          (records) => Queue.offerAll(delivered, records.map((record) => record.id)),
          { interval: "10 seconds" }
        ))
        const first = yield* Queue.take(delivered)
        yield* addRecords(1)
        // Once the follower is in its pause (it finds nothing new first), end the pause.
        yield* TestClock.sleeps().pipe(Effect.zipLeft(Effect.yieldNow()), Effect.repeat({ until: Chunk.isNonEmpty }))
        yield* TestClock.adjust("10 seconds")
        const second = yield* Queue.take(delivered)
        expect(second).not.toBe(first)
        expect(Option.isSome(yield* cursor.load)).toBe(true)
        yield* Fiber.interrupt(follower)
      }))
  })
})
