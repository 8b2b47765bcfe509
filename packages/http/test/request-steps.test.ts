/**
 * The request path's budget in Effect interpreter steps: what every request costs around its
 * own work, counted exactly (a supervisor sees each step of the handler's fibers), so it does not
 * depend on the machine's load. A change that adds a scoped context change, a span or a second
 * routing pass to every request (each one 15–80 steps) breaks it. `bench/cpu.ts --steps` counts
 * the same with the access log on; docs/performance.md lists what each step took out.
 */
import { contractSecrets, StepCounter } from "@costline/store-contract"
import { Core } from "@costline/core"
import { makeHandler } from "@costline/http"
import { SqliteStore } from "@costline/store-sqlite"
import { expect, it } from "@effect/vitest"
import { vi } from "vitest"
import { Effect, Layer, LogLevel, RuntimeFlags, Supervisor } from "effect"
import { inject } from "light-my-request"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { upsertInsight } from "./support/Insights.js"
import { seedTenant } from "./support/TestServer.js"

const REQUESTS = 20
/**
 * Measured 2026-11-27 (session 17) on Node 24: 37 / 31 / 8 and a write 128, a transaction's
 * connection layered over the fiber's context and put back in its exit's continuation
 * (store-sql's `UntracedTransaction`), not through `Effect.locally`; a write 148, SQLite's write lock
 * and connection taken in one synchronous step when both are free (store-sqlite's `Lock`: no
 * `Semaphore.withPermitsIfAvailable`, its mask, finalizer and release effects, twice).
 * Measured 2026-11-27 (session 16) on Node 24: 39 / 33 / 8 and a write 198, the pipeline's
 * request-wide rules (CORS, edge routes, canonical path, storable URL) asked in plain code in its
 * one step, and the answer's headers, rate-limit field and observation made in one continuation
 * (`Pipeline.ts`); 44 / 38 / 11 and a write 202, the request's
 * context made once by its host and added to in place (`RequestFiber.ownContext`): the dispatch
 * sets no context on the fiber, and a body request's limit and (JSON) request are no longer
 * provided around the rest of it (53 steps fewer on a write).
 * Measured 2026-11-27 on Node 24: 47 / 41 / 11 and a write 255, the path, header and query
 * decoders run as values in the dispatching step (`Routes`; each was three steps of its own);
 * 53 / 44 / 11 and a write 261 with the request's id read by
 * costline's JSON lines from the request's facts instead of annotated on the fiber (three steps
 * fewer on every request; the annotation stays for any other logger).
 * Measured 2026-11-26 (night) on Node 24: 56 / 47 / 14 and a write 264, with the tenant
 * middleware answering a key in use in its one step when every rule passes without an effect
 * (`Authentication.ts`; 27 steps fewer on every authenticated request).
 * Measured 2026-11-26 (evening) on Node 24 and 22.23: 83 / 74 / 14, the probe answered without
 * providing the store's health per request (39 before: the provide merged the whole context);
 * an insight's update (PATCH, a body) 291 with SQLite's transaction taken at once when its write
 * lock and connection are free (359 through their scopes and waits), 582 when every read of its
 * body went through `Effect.cached` and the read timeout raced a forked read;
 * 83 / 74 / 39 with the request's facts (id, tenant) recorded in
 * a record its host made, not set on the fiber (86 / 77 / 40 before); 85 / 75 / 40 with costline's own routes (`routing/Routes.ts`:
 * one context per request, no per-request merge of the group's services, no generator); 134 /
 * 125 / 40 through the platform's `HttpApiBuilder.group` handlers, with costline's own node
 * serving (`routing/NodeServing.ts`); 182 / 171 / 86 through the platform's
 * `NodeHttpServer.makeHandler`, 323 / 312 / 137 before the request fiber's context was set once.
 * Node 22 once took 25 steps more on every request; 22.23 takes none. A route's budget is what
 * it costs beyond the probe (29, 23 and 120), with a step of room (the probe's too): a change that adds steps to every
 * request pays for them elsewhere. The default rate limit adds 12 steps to the read (counting the
 * request against its key's budget) since the tenant middleware's one step holds with it on; 38
 * when every rule then ran as an effect.
 */
const BUDGET = { probe: 9, readBeyondProbe: 30, pageBeyondProbe: 24, writeBeyondProbe: 121, rateLimitBeyondRead: 13 }

it.live("an authenticated insight read, a page of insights, an insight's update and a probe stay within their step budgets", () =>
  Effect.gen(function*() {
    const directory = mkdtempSync(join(tmpdir(), "costline-steps-"))
    yield* Effect.addFinalizer(() => Effect.sync(() => rmSync(directory, { recursive: true, force: true })))
    const filename = join(directory, "steps.db")
    const seeded = yield* Effect.gen(function*() {
      const tenant = yield* seedTenant
      const insight = yield* upsertInsight(tenant.id, "WH_STEPS")
      return { tenant, insight }
    }).pipe(Effect.provide(Core.layerWithSecrets.pipe(Layer.provide(SqliteStore.layer({ filename })), Layer.provide(contractSecrets))))

    const steps = new StepCounter()
    const handlerWith = (rateLimit: false | undefined) =>
      Effect.acquireRelease(
        Effect.sync(() =>
          makeHandler({
            store: Layer.mergeAll(SqliteStore.layer({ filename }), Supervisor.addSupervisor(steps), RuntimeFlags.enableOpSupervision),
            secrets: contractSecrets,
            accessLog: false,
            rateLimit
          })
        ),
        (handler) => Effect.promise(() => handler.dispose())
      )
    const unlimited = yield* handlerWith(false)
    const headers = { authorization: `Bearer ${seeded.tenant.adminKey}`, "x-tenant-id": seeded.tenant.id }
    const stepsPerRequest = (url: string, auth: boolean, write?: { readonly body: string }, handler = unlimited) =>
      Effect.promise(async () => {
        const send = async () => {
          const answer = await inject(handler, write === undefined
            ? { method: "GET", url, headers: auth ? headers : {} }
            : { method: "PATCH", url, headers: { ...headers, "content-type": "application/json", "if-match": "*" }, payload: write.body })
          expect(answer.statusCode, answer.payload).toBe(200)
        }
        // Warm: the key cache, prepared statements, lazily built parts.
        for (let i = 0; i < 5; i++) await send()
        const before = steps.count
        for (let i = 0; i < REQUESTS; i++) await send()
        return (steps.count - before) / REQUESTS
      })

    const read = yield* stepsPerRequest(`/v2/insights/${seeded.insight.id}`, true)
    const page = yield* stepsPerRequest("/v2/insights?max_results=50", true)
    const probe = yield* stepsPerRequest("/healthz", false)
    // A write with a body: the body read once, and its reads after that the kept text.
    const write = yield* stepsPerRequest(`/v2/insights/${seeded.insight.id}`, true, { body: JSON.stringify({ assignee: "steps@example.com" }) })
    // The same read under the default rate limit (on unless turned off; its budget far above 25 requests).
    const limitedRead = yield* stepsPerRequest(`/v2/insights/${seeded.insight.id}`, true, undefined, yield* handlerWith(undefined))
    const measured = JSON.stringify({ read, page, probe, write, limitedRead })
    expect(probe, measured).toBeLessThanOrEqual(BUDGET.probe)
    expect(limitedRead - read, measured).toBeLessThanOrEqual(BUDGET.rateLimitBeyondRead)
    expect(read - probe, measured).toBeLessThanOrEqual(BUDGET.readBeyondProbe)
    expect(page - probe, measured).toBeLessThanOrEqual(BUDGET.pageBeyondProbe)
    expect(write - probe, measured).toBeLessThanOrEqual(BUDGET.writeBeyondProbe)
  }).pipe(Effect.scoped))

/**
 * The access log's entry is written in the step that observes the answer (`AccessLog.log`): no
 * `annotateLogs` and `logInfo` of its own. Measured 2026-11-26: +3 steps a request with it on
 * (the observation itself), +10 when the entry was those two effects.
 */
const ACCESS_LOG_BUDGET = 3

it.live("the access log adds no more than the observation's own steps to a request", () =>
  Effect.gen(function*() {
    const probeSteps = (accessLog: boolean) =>
      Effect.gen(function*() {
        const steps = new StepCounter()
        const handler = makeHandler({
          store: Layer.mergeAll(SqliteStore.layer({ filename: ":memory:" }), Supervisor.addSupervisor(steps), RuntimeFlags.enableOpSupervision),
          secrets: contractSecrets,
          accessLog,
          // The entry is formatted and written as in the server, from this level up.
          logLevel: LogLevel.Info,
          rateLimit: false
        })
        yield* Effect.addFinalizer(() => Effect.promise(() => handler.dispose()))
        return yield* Effect.promise(async () => {
          const send = async () => expect((await inject(handler, { method: "GET", url: "/healthz" })).statusCode).toBe(200)
          for (let i = 0; i < 5; i++) await send()
          const before = steps.count
          for (let i = 0; i < REQUESTS; i++) await send()
          return (steps.count - before) / REQUESTS
        })
        // Disposed here: the log's last batch is written before the spy goes.
      }).pipe(Effect.scoped)
    const written: Array<string> = []
    const write = vi.spyOn(process.stdout, "write").mockImplementation((chunk: string | Uint8Array) => {
      written.push(String(chunk))
      return true
    })
    const off = yield* probeSteps(false)
    const on = yield* probeSteps(true).pipe(Effect.ensuring(Effect.sync(() => write.mockRestore())))
    // It did log each request.
    expect(written.join("").split("\n").filter((line) => line.includes("\"request served\"")).length).toBeGreaterThanOrEqual(REQUESTS)
    expect(on - off, JSON.stringify({ on, off })).toBeLessThanOrEqual(ACCESS_LOG_BUDGET)
  }).pipe(Effect.scoped))
