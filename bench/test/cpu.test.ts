/** Reading a server's CPU time from /proc, and deciding when it is warm. */
import { describe, expect, it } from "vitest"
import { spawn } from "node:child_process"
import { cpuMicros, cpuTicks, isSteady, processState, untilIdle, watched } from "../lib/Cpu.js"
import { measurementFlags } from "../lib/NodeFlags.js"
import { row } from "../lib/Report.js"

describe("CPU time from /proc/<pid>/stat", () => {
  it("adds utime and stime, whatever the command name holds", () => {
    // Fields 14 and 15 are utime (1200) and stime (34); the name has spaces and a parenthesis.
    const line = "4242 (node (x) y) S 1 4242 4242 0 -1 4194560 5000 0 0 0 1200 34 0 0 20 0 11 0 100 1000000 9000"
    expect(cpuTicks(line)).toBe(1234)
    expect(() => cpuTicks("garbage")).toThrow(/not a \/proc/)
  })

  it("grows with the work a process does", () => {
    const before = cpuMicros(process.pid)
    const until = performance.now() + 150
    let spin = 0
    while (performance.now() < until) spin += Math.sqrt(spin + 1)
    expect(spin).toBeGreaterThan(0)
    // 150 ms of spinning is at least a few 10 ms ticks of CPU, whatever else the machine does.
    expect(cpuMicros(process.pid) - before).toBeGreaterThanOrEqual(10_000)
  })
})

describe("warm-up", () => {
  it("is steady once the last samples agree and have stopped falling", () => {
    expect(isSteady([])).toBe(false)
    expect(isSteady([500, 498])).toBe(false)
    expect(isSteady([2300, 900, 520, 505, 512])).toBe(true)
    // Still falling by more than half the tolerance at the last step.
    expect(isSteady([560, 540, 515])).toBe(false)
    // Noisy.
    expect(isSteady([400, 520, 450])).toBe(false)
  })
})

describe("result rows", () => {
  it("carry CPU per request and the peer, its ratio to the baseline's", () => {
    const measured = row({
      name: "insight_get",
      store: "sqlite",
      connections: 1,
      unit: "req/s",
      ours: 600,
      baseline: 1000,
      p50_ms: 1,
      p99_ms: 2,
      baseline_p50_ms: 0.5,
      baseline_p99_ms: 1,
      ours_cpu_us: 412.34,
      baseline_cpu_us: 80.2,
      peer: 900,
      peer_cpu_us: 95.6,
      peer_p99_ms: 1.26
    })
    expect(measured).toMatchObject({ ratio: 0.6, ours_cpu_us: 412, baseline_cpu_us: 80, peer: 900, peer_ratio: 0.9, peer_cpu_us: 96, peer_p99_ms: 1.3 })
    const bare = row({ name: "cold_start", store: "sqlite", connections: null, unit: "ms", ours: 500, baseline: 200, p50_ms: null, p99_ms: null, baseline_p50_ms: null, baseline_p99_ms: null })
    expect(bare).toMatchObject({ ours_cpu_us: null, peer: null, peer_ratio: null })
  })
})

describe("waiting for a server to go idle", () => {
  it("returns only once the process has stopped using CPU", async () => {
    // A process that works for 300 ms of CPU, then sits idle, as a server working off the
    // requests a load run left in flight (seconds of wall time on a loaded machine).
    const child = spawn(process.execPath, ["-e", "const end = process.cpuUsage().user + 300000; while (process.cpuUsage().user < end); setTimeout(() => {}, 60000)"])
    try {
      await untilIdle(watched(child.pid!))
      expect(cpuMicros(child.pid!)).toBeGreaterThanOrEqual(300_000)
      expect(child.exitCode).toBeNull()
    } finally {
      child.kill()
    }
  }, 60_000)

  it("waits for a process that is runnable, however little CPU it gets (a loaded machine)", async () => {
    // Runnable for the first 20 reads of its state, using no CPU: not idle until it sleeps.
    let reads = 0
    const waiting = { cpuMicros: () => 0, running: () => ++reads <= 20 }
    await untilIdle(waiting, { intervalMs: 10, sampleMs: 1, idleMicros: 0, timeoutMs: 10_000 })
    expect(reads).toBeGreaterThan(20)
  })

  it("gives up on a process that never goes quiet", async () => {
    let cpu = 0
    const busy = { cpuMicros: () => (cpu += 50_000), running: () => false }
    await expect(untilIdle(busy, { intervalMs: 5, sampleMs: 1, idleMicros: 10_000, timeoutMs: 50 })).rejects.toThrow(/still busy/)
  })

  it("reads the main thread's state after the command name", () => {
    expect(processState("4242 (node (x) y) R 1 4242")).toBe("R")
    expect(processState("4242 (node) S 1 4242")).toBe("S")
  })
})

describe("a measurement process's Node flags (`bench/cpu.ts --node-flags`)", () => {
  it("are the ones given, then a CPU profile's when one is asked for", () => {
    expect(measurementFlags("", undefined)).toEqual([])
    expect(measurementFlags(" --max-semi-space-size=4  --trace-gc ", undefined)).toEqual(["--max-semi-space-size=4", "--trace-gc"])
    expect(measurementFlags("--trace-gc", "/tmp/profiles")).toEqual(["--trace-gc", "--cpu-prof", "--cpu-prof-interval", "100", "--cpu-prof-dir", "/tmp/profiles"])
  })
})
