/**
 * The sides of a served comparison (`bench/served-ab.ts`, `bench/gc-promotion.ts`): each a server
 * taking `serve --database <url> --port <n>` (a costline build's `bin/costline.js`, or a floor
 * such as `bench/floor/core-min.mjs`; relative to the working directory; default this
 * checkout's) with its own environment, and the load scenarios they are driven with.
 */
import type { Scenario } from "./Scenario.js"
import { auditExport } from "../scenarios/audit.js"
import { insightGet, insightPatch, insightsList } from "../scenarios/insights.js"

export interface Side {
  readonly costline?: string
  readonly env?: Record<string, string>
}

/** The command-line options every served comparison takes (`parseArgs`): the store, the scenarios, the sides. */
export const SIDE_OPTIONS = {
  store: { type: "string", default: "sqlite" },
  scenarios: { type: "string", default: "insight_get" },
  side: { type: "string", multiple: true }
} as const

/** The sides given as JSON (`--side '{"costline": "…"}'`), else `fallback`'s. */
export const parseSides = (texts: ReadonlyArray<string> | undefined, fallback: ReadonlyArray<string>): ReadonlyArray<Side> =>
  (texts ?? fallback).map((text) => JSON.parse(text) as Side)

const SCENARIOS: Record<string, Scenario> = Object.fromEntries(
  [insightGet, insightsList, insightPatch, auditExport].map((scenario) => [scenario.name, scenario])
)

/** The served scenario of this name; an error naming it when there is none. */
export const scenarioNamed = (name: string): Scenario => {
  const scenario = SCENARIOS[name]
  if (scenario === undefined) throw new Error(`no load scenario ${name}`)
  return scenario
}
