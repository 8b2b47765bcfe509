/**
 * What building the whole API costs at every start, counted exactly: the layers the memo map
 * builds (each one a scope, a deferred, a permit and a FiberRefs diff, ~110 interpreter steps) and
 * the interpreter steps of the build over a fresh SQLite file. A layer per service or repository,
 * or a `Layer.provide` chain per service (four layers each), breaks it: core's services, the SQL
 * repositories and the tenant middlewares are each built by one layer (`Core.addService`), every
 * group's routes by one (`Routes.layer`).
 * docs/performance.md ("Cold start") gives the counts before and after.
 */
import { HttpApiBuilder } from "@effect/platform"
import { CodeChangesDeterministic, QueryAnalyzerLive, SqlWorkersLive } from "@costline/analysis"
import { contractSecrets, stepsOf } from "@costline/store-contract"
import { ApiLive } from "@costline/http"
import * as Dispatch from "../src/routing/Dispatch.js"
import { SqliteStore } from "@costline/store-sqlite"
import { expect, it } from "@effect/vitest"
import { Effect, Layer, type Scope } from "effect"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"

/**
 * Measured 2026-11-26 (Node 24): 73 layers and 16,572 steps since every group's routes are
 * compiled by one layer (`routing/Routes.ts`); 169 and 27,325 with the platform's 18
 * `HttpApiBuilder.group`s (five layers each: a `Router.use` and the `provide` of the router under
 * it); 361 and 48,513 before one layer built core's services, one the SQL repositories and one
 * the tenant middlewares. Steps include migrating the fresh file. A little room.
 */
const BUDGET = { layers: 80, steps: 18_500 }

/** The memo map's one method: in every `MemoMap` of `effect`, though not in its public type. */
interface Memoizing {
  getOrElseMemoize(layer: Layer.Layer<unknown, unknown, unknown>, scope: Scope.Scope): Effect.Effect<unknown, unknown, unknown>
}

/** A memo map that counts the distinct layers it builds (cache hits are not builds). */
const countingMemoMap = Effect.map(Layer.makeMemoMap, (memoMap) => {
  const built = new Set<unknown>()
  const real = memoMap as unknown as Memoizing
  const counting = Object.create(memoMap) as Memoizing & Layer.MemoMap
  // The real map's method with `this` the counting map: layers nested inside reach it again.
  counting.getOrElseMemoize = function(layer, scope) {
    built.add(layer)
    return real.getOrElseMemoize.call(this, layer, scope)
  }
  return { memoMap: counting as Layer.MemoMap, built }
})

it.live("building the whole API over SQLite stays within its budget of layers and interpreter steps", () =>
  Effect.gen(function*() {
    const directory = mkdtempSync(join(tmpdir(), "costline-start-"))
    yield* Effect.addFinalizer(() => Effect.sync(() => rmSync(directory, { recursive: true, force: true })))
    const api = Layer.mergeAll(
      ApiLive({
        store: SqliteStore.layer({ filename: join(directory, "start.db") }),
        secrets: contractSecrets,
        analysis: QueryAnalyzerLive.pipe(Layer.provideMerge(CodeChangesDeterministic), Layer.provide(SqlWorkersLive())),
        accessLog: true
      }),
      HttpApiBuilder.Middleware.layer
    )
    const { built, memoMap } = yield* countingMemoMap
    const scope = yield* Effect.scope
    const steps = yield* stepsOf(Layer.buildWithMemoMap(api, memoMap, scope))
    const measured = JSON.stringify({ layers: built.size, steps })
    expect(built.size, measured).toBeLessThanOrEqual(BUDGET.layers)
    expect(steps, measured).toBeLessThanOrEqual(BUDGET.steps)
    // Built for real (the memo map has it): the API's app is made from it.
    const app = yield* Dispatch.httpApp.pipe(Effect.provide(yield* Layer.buildWithMemoMap(api, memoMap, scope)))
    expect(Effect.isEffect(app)).toBe(true)
  }).pipe(Effect.scoped))
