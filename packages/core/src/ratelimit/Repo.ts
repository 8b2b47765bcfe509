/**
 * Storage contract of rate limiting: apply one GCRA step to a key atomically. A store that
 * shares state between instances (Postgres) does it in one statement; a single-process store
 * (SQLite) keeps the state in memory (`layerMemory`).
 */
import { Context, Effect, Layer } from "effect"
import type { StoreUnavailable } from "../shared/Errors.js"
import * as Gcra from "./Gcra.js"

/**
 * @since 0.1.0
 * @category tags
 */
export class RateLimitRepo extends Context.Tag("@costline/core/RateLimitRepo")<
  RateLimitRepo,
  {
    /** Reads the key's TAT, applies `Gcra.step` at `nowMs` and stores the result, as one atomic step. */
    readonly take: (key: string, rule: Gcra.GcraParameters, nowMs: number) => Effect.Effect<Gcra.Outcome, StoreUnavailable>
  }
>() {}

/** Past this many keys, keys whose TAT has passed (they equal unseen keys) are dropped. */
const SWEEP_AT_KEYS = 10_000

/**
 * State of one process. Operations on it are synchronous, so each step is atomic in Node.
 * @since 0.1.0
 * @category constructors
 */
export const makeMemory = (): RateLimitRepo["Type"] => {
  const tats = new Map<string, number>()
  const sweep = (nowMs: number) => {
    for (const [key, tat] of tats) if (tat <= nowMs) tats.delete(key)
  }
  return RateLimitRepo.of({
    take: (key, rule, nowMs) =>
      Effect.sync(() => {
        if (tats.size >= SWEEP_AT_KEYS) sweep(nowMs)
        const outcome = Gcra.step(rule, tats.get(key), nowMs)
        tats.set(key, outcome.tatMs)
        return outcome
      })
  })
}

/**
 * @since 0.1.0
 * @category layers
 */
export const layerMemory: Layer.Layer<RateLimitRepo> = Layer.sync(RateLimitRepo, makeMemory)
