/** What a scenario is: a request (the same for both servers) and how to count its work. */
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
  readonly name: string
  /** What `ours` and `baseline` count, e.g. `records/s`. */
  readonly unit: string
  /** Units of work in one response (records in a page; 1 for a single resource). */
  readonly unitsPerRequest: number
  /** Connection counts to measure at; the run's own list when absent. */
  readonly connections?: ReadonlyArray<number>
  /** False when answers legitimately differ between servers (each update mints its own ETag). */
  readonly sameAnswer?: false
  /** A request generator; each server gets a fresh one, so stateful sequences start alike. */
  readonly requests: (context: ScenarioContext) => () => Request
}
