/**
 * The analysis worker threads: a slow parse leaves the caller's event loop free, a job past the
 * time limit ends as too complex and the next one works, a full queue refuses at once, and
 * closing the pool ends its threads even mid-job. The time limit runs on the TestClock, so these
 * tests wait on the workers' own answers and count event-loop turns, never on time.
 */
import { describe, expect, it } from "@effect/vitest"
import { QueryAnalysis } from "@costline/core"
import { Chunk, Context, Effect, Either, Exit, Fiber, Layer, Scope, TestClock } from "effect"
import { deterministicFixes } from "../src/DeterministicRewriter.js"
import { analyze, layer as queryAnalyzer } from "../src/QueryAnalyzer.js"
import * as SqlWorkers from "../src/SqlWorkers.js"
import { deterministic, workers } from "./helpers.js"

/** A select list of ~100,000 characters (the longest query_text): ~1 s of parsing, on any machine hundreds of event-loop turns. */
const SLOW = `SELECT ${Array.from({ length: 13_500 }, (_, i) => `c${i}`).join(", ")} FROM t1, t2`
const slow = new QueryAnalysis.AnalyzeQueryRequest({ query_text: SLOW })
const quick = new QueryAnalysis.AnalyzeQueryRequest({ query_text: "SELECT * FROM t" })

const job = (request: QueryAnalysis.AnalyzeQueryRequest) => ({ _tag: "Analyze", request, history: undefined, generatable: [] }) as const

const turn = Effect.promise(() => new Promise<void>((resolve) => setImmediate(resolve)))
const poll = Effect.promise(() => new Promise<void>((resolve) => setTimeout(resolve, 5)))

/** Until a job is on a thread (its time limit's sleep is on the TestClock), or `fiber` is done. */
const untilOnThread = (fiber: Fiber.RuntimeFiber<unknown, unknown>) =>
  Effect.gen(function*() {
    while (Chunk.isEmpty(yield* TestClock.sleeps()) && fiber.unsafePoll() === null) yield* poll
  })

describe("analysis on worker threads", () => {
  it("the slow query is within the API's bounds", () => {
    expect(SLOW.length).toBeLessThanOrEqual(QueryAnalysis.MAX_QUERY_LENGTH)
    expect(SLOW.length).toBeGreaterThan(QueryAnalysis.MAX_QUERY_LENGTH * 0.9)
  })

  it.effect("a slow analysis leaves the event loop turning, and finds what analysing in process finds", () =>
    Effect.gen(function*() {
      const analyzer = yield* QueryAnalysis.QueryAnalyzer
      const fiber = yield* Effect.fork(analyzer.analyze(slow))
      yield* untilOnThread(fiber)
      for (let i = 0; i < 20; i++) yield* turn
      // Parsed on this thread, the analysis would have ended before the first of these turns.
      expect(fiber.unsafePoll()).toBeNull()
      const insights = yield* Fiber.join(fiber)
      const inProcess = Either.getOrThrow(analyze(slow, { canGenerate: (type) => deterministicFixes.has(type) }))
      expect(insights).toEqual(inProcess)
      expect(insights.map((insight) => insight.insight_type)).toEqual(["cartesian_join"])
    }).pipe(Effect.provide(queryAnalyzer.pipe(Layer.provideMerge(deterministic), Layer.provide(workers)))))

  it.effect("a job past the time limit fails as too complex, and the next job is answered", () =>
    Effect.gen(function*() {
      const pool = yield* SqlWorkers.SqlWorkers
      const fiber = yield* Effect.fork(Effect.flip(pool.run(job(slow))))
      yield* untilOnThread(fiber)
      yield* TestClock.adjust(SqlWorkers.DEFAULT_TIME_LIMIT)
      const error = yield* Fiber.join(fiber)
      expect(error._tag).toBe("ValidationFailed")
      expect(error._tag === "ValidationFailed" && error.details).toMatchObject([{ field: "query_text", issue: "too_complex" }])
      expect(error.message).toMatch(/took longer than 10 s/)
      const next = yield* pool.run(job(quick))
      expect(next.map((insight) => insight.insight_type)).toEqual(["select_star"])
    }).pipe(Effect.provide(workers)))

  it.effect("with every thread busy and the queue full, a job is refused at once with AnalysisBusy", () =>
    Effect.gen(function*() {
      const pool = yield* SqlWorkers.SqlWorkers
      const running = yield* Effect.fork(Effect.either(pool.run(job(slow))))
      yield* untilOnThread(running)
      const refused = yield* Effect.flip(pool.run(job(quick)))
      expect(refused).toMatchObject({ _tag: "AnalysisBusy", retryAfterSeconds: SqlWorkers.BUSY_RETRY_AFTER_SECONDS })
      yield* TestClock.adjust(SqlWorkers.DEFAULT_TIME_LIMIT)
      yield* Fiber.join(running)
      // Its place freed, the next is taken.
      expect((yield* pool.run(job(quick))).length).toBe(1)
    }).pipe(Effect.provide(SqlWorkers.layer({ size: 1, queue: 0 }))))

  it.effect("closing the pool ends its threads, even one in the middle of a job", () =>
    Effect.gen(function*() {
      const scope = yield* Scope.make()
      const context = yield* Layer.buildWithScope(SqlWorkers.layer({ size: 1 }), scope)
      const pool = Context.get(context, SqlWorkers.SqlWorkers)
      const running = yield* Effect.fork(pool.run(job(slow)))
      yield* untilOnThread(running)
      yield* Scope.close(scope, Exit.void)
      const exit = yield* Fiber.await(running)
      expect(Exit.isFailure(exit) && Exit.causeOption(exit)).toBeTruthy()
      expect(String(Exit.isFailure(exit) ? exit.cause : "")).toMatch(/exited/)
    }))
})
