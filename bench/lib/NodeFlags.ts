/**
 * The Node flags a measurement process of `bench/cpu.ts` starts with: the ones given with
 * `--node-flags` (space-separated, e.g. the server's heap sizing `--max-semi-space-size=4`, or
 * `--trace-gc`), then a CPU profile's when `--cpu-prof <dir>` asks for one.
 */
export const measurementFlags = (nodeFlags: string, cpuProfileDir: string | undefined): Array<string> => [
  ...nodeFlags.split(" ").filter((flag) => flag !== ""),
  ...cpuProfileDir === undefined ? [] : ["--cpu-prof", "--cpu-prof-interval", "100", "--cpu-prof-dir", cpuProfileDir]
]
