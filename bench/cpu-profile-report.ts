/**
 * Self time of a V8 CPU profile by source file and by function, a bundle's frames named through
 * its source map (`lib/CpuProfileReport.ts`). For `costline serve`, build the bundle with its map
 * and profile a served side:
 *
 *   COSTLINE_BUNDLE_SOURCEMAP=1 npm run build
 *   npx vite-node bench/served-ab.ts -- --scenarios insight_get --connections 64 --bursts 6 \
 *     --side '{"env":{"NODE_OPTIONS":"--cpu-prof --cpu-prof-dir=/tmp/prof"}}'
 *   npx vite-node bench/cpu-profile-report.ts -- /tmp/prof/*.cpuprofile --map packages/cli/dist/bundle/serve.cjs.map
 *
 * A V8 profile charges a builtin's time (`JSON.stringify`, a regular expression) to the function
 * that called it, and sees neither the kernel nor V8's worker threads: `bench/perf-served.ts` does.
 */
import { readFileSync } from "node:fs"
import { basename } from "node:path"
import { parseArgs } from "node:util"
import { type CpuProfile, report, sourceMapping } from "./lib/CpuProfileReport.js"

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: {
    /** The source map of the bundled script whose frames to name (its file is the map's name without `.map`). */
    map: { type: "string" },
    top: { type: "string", default: "40" }
  }
})
if (positionals.length !== 1) throw new Error("usage: cpu-profile-report.ts <file.cpuprofile> [--map <bundle>.map] [--top N]")

const profile = JSON.parse(readFileSync(positionals[0]!, "utf8")) as CpuProfile
const mapping = values.map === undefined ? undefined : sourceMapping(basename(values.map, ".map"), readFileSync(values.map, "utf8"))
const result = report(profile, mapping)
const top = Number(values.top)
const lines = (title: string, shares: ReadonlyArray<{ readonly name: string; readonly percent: number }>) =>
  [`${title}:`, ...shares.slice(0, top).map(({ name, percent }) => `${percent.toFixed(1).padStart(6)}%  ${name}`)]
process.stdout.write([
  `busy ${result.busyMs.toFixed(0)} ms (idle left out)`,
  "",
  ...lines("self time by source file", result.byFile),
  "",
  ...lines("self time by function", result.byFunction),
  ""
].join("\n"))
