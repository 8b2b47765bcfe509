/**
 * What a scenario is. Most are a request driven under load at several connection counts
 * (`Scenario`, see Measure). A request that does seconds of work, such as attributing a million
 * usage records, is instead timed one at a time (`TimedScenario`, see MeasureTimed).
 */
import type { Request } from "./Load.js"
import type { Seeded } from "./Seed.js"
import type { StoreKind } from "./Stores.js"

export interface ScenarioContext {
  readonly store: StoreKind
  readonly seeded: Seeded
  /** The headers every request carries: the admin key and the tenant. */
  readonly headers: Record<string, string>
}

export interface Scenario {
  readonly kind?: "load"
  readonly name: string
  /** What `ours` and `baseline` count, e.g. `records/s`. */
  readonly unit: string
  /** Units of work in one response (records in a page; 1 for a single resource). */
  readonly unitsPerRequest: number
  /** Connection counts to measure at; the run's own list when absent. */
  readonly connections?: ReadonlyArray<number>
  /** False when answers legitimately differ between servers (each update mints its own ETag). */
  readonly sameAnswer?: false
  /** Whether the Fastify peer (`bench/peer/`) serves it too. */
  readonly peer?: true
  /** A request generator; each server gets a fresh one, so stateful sequences start alike. */
  readonly requests: (context: ScenarioContext) => () => Request
}

export interface TimedScenario {
  readonly kind: "timed"
  readonly name: string
  /** What `ours` and `baseline` count, e.g. `rows/s`. */
  readonly unit: string
  /** Units of work in one response (e.g. the usage records one report reads). */
  readonly unitsPerRequest: (context: ScenarioContext) => number
  readonly request: (context: ScenarioContext) => Request
  /** A request down the same path with next to no work (e.g. a month without usage). */
  readonly warmUp: (context: ScenarioContext) => Request
  /** Whether two answers are the same, where deep equality is too strict (e.g. float sums). */
  readonly sameAnswer: (ours: unknown, baseline: unknown) => boolean
  /**
   * A cheap path (e.g. `/healthz`) asked again and again, one at a time, while one more request
   * runs: how long it waits says whether the long request holds the server's event loop.
   */
  readonly probeDuring?: string
}

export type AnyScenario = Scenario | TimedScenario
