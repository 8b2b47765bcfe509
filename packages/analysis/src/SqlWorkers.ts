/**
 * The analysis worker threads: a small pool of `node:worker_threads` workers that run the jobs of
 * `Jobs.ts` (parsing with node-sql-parser, the rules, the rewrites), so that however long one
 * takes, the server's event loop keeps answering other requests.
 *
 * Written on `node:worker_threads` rather than `@effect/platform`'s `Worker` pool: that pool
 * cannot end one job that runs too long (a busy worker reads no interrupt; its thread is not
 * reachable through the pool, and a thread that dies is restarted by the pool after a second,
 * with a warning), has no bounded queue, and starts every worker when it is built. Here a job past
 * the time limit has its thread terminated (the next job starts a new one), at most `queue` jobs
 * wait for a thread, threads start on first use, and closing the layer's scope terminates them.
 */
import { Errors, QueryAnalysis } from "@costline/core"
import { Context, Duration, Effect, Layer, Schema } from "effect"
import { availableParallelism } from "node:os"
import { Worker } from "node:worker_threads"
import { type Job, type JobFailure, type JobSuccess, type Outcome, RESULTS } from "./Jobs.js"
import { sqlWorkerEntry } from "./SqlWorkerEntry.js"

export interface SqlWorkersOptions {
  /** Worker threads. Default: one fewer than the machine's cores, at least 1 and at most 2. */
  readonly size?: number | undefined
  /** The longest one job may run before its thread is terminated. Default 10 s. */
  readonly timeLimit?: Duration.DurationInput | undefined
  /** Jobs that may wait for a free thread; beyond them a job fails with `AnalysisBusy`. Default 16. */
  readonly queue?: number | undefined
  /**
   * The old-generation heap of each thread (MB): a bound on what one job can take. Default 256
   * (the longest query the API takes needs under 64); a job that needs more ends its thread, a defect.
   */
  readonly maxHeapMb?: number | undefined
  /** The worker's entry point. Default: this package's `SqlWorker.js`. */
  readonly entry?: URL | undefined
}

export const DEFAULT_TIME_LIMIT = Duration.seconds(10)
export const DEFAULT_QUEUE = 16
export const DEFAULT_MAX_HEAP_MB = 256
/** How long a caller refused with `AnalysisBusy` is asked to wait. */
export const BUSY_RETRY_AFTER_SECONDS = 1

export const defaultSize = (): number => Math.max(1, Math.min(2, availableParallelism() - 1))

export type SqlWorkersError<J extends Job> = JobFailure<J["_tag"]> | Errors.ValidationFailed | QueryAnalysis.AnalysisBusy

export class SqlWorkers extends Context.Tag("@costline/analysis/SqlWorkers")<SqlWorkers, {
  /**
   * Runs a job on a worker thread. A job past the time limit fails as too complex
   * (`ValidationFailed`, issue `too_complex`; `ModelOutputInvalid` for a model's suggestion);
   * with every thread busy and the queue full, `AnalysisBusy`.
   */
  readonly run: <J extends Job>(job: J) => Effect.Effect<JobSuccess<J["_tag"]>, SqlWorkersError<J>>
}>() {}

/** What a job that is too much for a worker fails with: the text it was given is to blame. */
const tooComplex = (job: Job, why: string) =>
  job._tag === "Check"
    ? new QueryAnalysis.ModelOutputInvalid({ message: `${job.provider}'s suggestion ${why}` })
    : Errors.ValidationFailed.single("query_text", "too_complex", `query_text ${why}; it cannot be analysed`)

interface Slot {
  thread: Worker | undefined
}

const decode = (job: Job, outcome: Outcome): Effect.Effect<unknown, unknown> => {
  const schemas: { readonly success: Schema.Schema<any, any>; readonly failure: Schema.Schema<any, any> } = RESULTS[job._tag]
  switch (outcome._tag) {
    case "Success":
      return Effect.orDie(Schema.decodeUnknown(schemas.success)(outcome.value))
    case "Failure":
      return Effect.flatMap(Effect.orDie(Schema.decodeUnknown(schemas.failure)(outcome.error)), Effect.fail)
    case "Defect":
      return Effect.die(new Error(`an analysis job failed: ${outcome.message}`))
  }
}

export const make = (options: SqlWorkersOptions = {}) =>
  Effect.gen(function*() {
    const size = Math.max(1, Math.floor(options.size ?? defaultSize()))
    const timeLimit = Duration.decode(options.timeLimit ?? DEFAULT_TIME_LIMIT)
    const seconds = Duration.toSeconds(timeLimit)
    const queue = Math.max(0, Math.floor(options.queue ?? DEFAULT_QUEUE))
    const maxHeapMb = options.maxHeapMb ?? DEFAULT_MAX_HEAP_MB
    const entry = options.entry ?? sqlWorkerEntry()
    const idle: Array<Slot> = Array.from({ length: size }, () => ({ thread: undefined }))
    const permits = yield* Effect.makeSemaphore(size)
    let admitted = 0
    let nextId = 0

    /** Every thread started and not yet exited. */
    const threads = new Set<Worker>()
    // Closing the scope (the server's shutdown) ends every thread, busy, idle or starting.
    yield* Effect.addFinalizer(() => Effect.promise(() => Promise.all([...threads].map((thread) => thread.terminate()))))

    /** The slot's thread, started (and waited for, outside the time limit) if it has none. */
    const threadOf = (slot: Slot) =>
      Effect.async<Worker>((resume) => {
        if (slot.thread !== undefined) return resume(Effect.succeed(slot.thread))
        const thread = new Worker(entry, { resourceLimits: { maxOldGenerationSizeMb: maxHeapMb } })
        // A thread that dies is replaced by the next job (and an 'error' with no listener would throw).
        const forget = () => {
          if (slot.thread === thread) slot.thread = undefined
        }
        thread.on("error", forget).on("exit", () => {
          forget()
          threads.delete(thread)
        })
        const settle = (result: Effect.Effect<Worker>) => {
          thread.off("message", onMessage).off("error", onError).off("exit", onExit)
          resume(result)
        }
        const onMessage = (message: { readonly ready?: boolean }) => {
          if (message.ready !== true) return
          slot.thread = thread
          // Idle threads do not keep the process alive; a running job does (`exchange`).
          thread.unref()
          settle(Effect.succeed(thread))
        }
        const onError = (error: Error) => settle(Effect.die(error))
        const onExit = (code: number) => settle(Effect.die(new Error(`an analysis worker exited as it started (code ${code})`)))
        thread.on("message", onMessage).on("error", onError).on("exit", onExit)
        threads.add(thread)
        return Effect.sync(() => {
          thread.off("message", onMessage).off("error", onError).off("exit", onExit)
          void thread.terminate()
        })
      })

    /** Sends the job to the thread and waits for its outcome. */
    const exchange = (slot: Slot, thread: Worker, job: Job) =>
      Effect.async<Outcome>((resume) => {
        const id = nextId++
        const settle = (result: Effect.Effect<Outcome>) => {
          thread.off("message", onMessage).off("error", onError).off("exit", onExit).unref()
          resume(result)
        }
        const onMessage = (message: { readonly id?: number; readonly outcome: Outcome }) => {
          if (message.id === id) settle(Effect.succeed(message.outcome))
        }
        // A thread that fails (its heap exhausted: unreachable within the API's bounds) is a defect.
        const onError = (error: Error) => settle(Effect.die(error))
        const onExit = (code: number) => settle(Effect.die(new Error(`an analysis worker exited (code ${code})`)))
        thread.on("message", onMessage).on("error", onError).on("exit", onExit).ref()
        thread.postMessage({ id, job })
        // Interrupted (the time limit, or the caller went away) while the thread still works on
        // the job: it reads no message until the job ends, so it is terminated.
        return Effect.sync(() => {
          thread.off("message", onMessage).off("error", onError).off("exit", onExit)
          if (slot.thread === thread) slot.thread = undefined
          void thread.terminate()
        })
      })

    const onThread = (job: Job) =>
      Effect.acquireUseRelease(
        Effect.sync(() => idle.pop()!),
        (slot) =>
          Effect.flatMap(threadOf(slot), (thread) =>
            exchange(slot, thread, job).pipe(
              Effect.timeoutFail({
                duration: timeLimit,
                onTimeout: () => tooComplex(job, `took longer than ${seconds} s to analyse`)
              })
            )),
        (slot) => Effect.sync(() => idle.push(slot))
      )

    const run = <J extends Job>(job: J): Effect.Effect<JobSuccess<J["_tag"]>, SqlWorkersError<J>> =>
      Effect.suspend(() => {
        if (admitted >= size + queue) {
          return Effect.fail(
            new QueryAnalysis.AnalysisBusy({
              message: "every query-analysis worker is busy; retry shortly",
              retryAfterSeconds: BUSY_RETRY_AFTER_SECONDS
            })
          )
        }
        admitted++
        return permits.withPermits(1)(onThread(job)).pipe(
          Effect.ensuring(Effect.sync(() => admitted--)),
          Effect.flatMap((outcome) => decode(job, outcome))
        )
      }) as Effect.Effect<JobSuccess<J["_tag"]>, SqlWorkersError<J>>

    return SqlWorkers.of({ run })
  })

/** The pool, its threads terminated when the layer's scope closes. */
export const layer = (options?: SqlWorkersOptions): Layer.Layer<SqlWorkers> => Layer.scoped(SqlWorkers, make(options))
