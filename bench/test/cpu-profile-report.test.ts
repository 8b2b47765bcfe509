/**
 * `bench/cpu-profile-report.ts` reads a V8 CPU profile as self time by source file and function,
 * a bundle's frames named through its source map, idle time left out; and a real profile of a
 * bundled script, with the map esbuild wrote for it, names the script's own sources.
 */
import { execFileSync } from "node:child_process"
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import { SourceMapGenerator } from "source-map-js"
import { build } from "esbuild"
import { describe, expect, it } from "vitest"
import { type CpuProfile, report, shortSource, sourceMapping } from "../lib/CpuProfileReport.js"

const frame = (functionName: string, url: string, lineNumber: number, columnNumber: number) => ({ functionName, url, lineNumber, columnNumber })

// Line 1 of `serve.cjs` (0-based, as V8 counts) holds two functions from two sources.
const PROFILE: CpuProfile = {
  nodes: [
    { id: 1, callFrame: frame("(idle)", "", -1, -1) },
    { id: 2, callFrame: frame("runLoop", "file:///app/dist/serve.cjs", 1, 10) },
    { id: 3, callFrame: frame("", "file:///app/dist/serve.cjs", 1, 50) },
    { id: 4, callFrame: frame("parserOnIncoming", "node:_http_server", 1166, 3) },
    { id: 5, callFrame: frame("(garbage collector)", "", -1, -1) },
    { id: 6, callFrame: frame("header", "file:///app/dist/serve.cjs", 0, 0) }
  ],
  samples: [1, 2, 2, 3, 4, 5, 1, 6],
  timeDeltas: [5000, 300, 300, 200, 100, 50, 9000, 50]
}

const mapOf = () => {
  const generator = new SourceMapGenerator({ file: "serve.cjs" })
  generator.addMapping({ generated: { line: 2, column: 0 }, original: { line: 1361, column: 0 }, source: "../../../../node_modules/effect/src/internal/fiberRuntime.ts" })
  generator.addMapping({ generated: { line: 2, column: 40 }, original: { line: 98, column: 2 }, source: "../../../http/src/logging/JsonLines.ts" })
  return generator.toString()
}

describe("a CPU profile by source", () => {
  it("names a bundle's frames by their sources and lines, leaves idle out, and keeps other frames as V8 named them", () => {
    const result = report(PROFILE, sourceMapping("serve.cjs", mapOf()))
    expect(result.busyMs).toBe(1)
    expect(result.byFile).toEqual([
      { name: "effect/src/internal/fiberRuntime.ts", percent: 60 },
      { name: "http/src/logging/JsonLines.ts", percent: 20 },
      { name: "node:_http_server", percent: 10 },
      { name: "(garbage collector)", percent: 5 },
      { name: "file:///app/dist/serve.cjs", percent: 5 }
    ])
    expect(result.byFunction.map((share) => share.name)).toEqual([
      "runLoop effect/src/internal/fiberRuntime.ts:1361",
      "(anonymous) http/src/logging/JsonLines.ts:98",
      "parserOnIncoming node:_http_server:1167",
      "(garbage collector) (garbage collector):0",
      "header file:///app/dist/serve.cjs:1"
    ])
  })

  it("without a map, a bundle's frames are its positions", () => {
    expect(report(PROFILE).byFile[0]).toEqual({ name: "file:///app/dist/serve.cjs", percent: 85 })
  })

  it("the server's bundle is built with its map only when asked to", () => {
    // The build script's helper, asked from a process of its own (it is untyped JavaScript).
    const plugins = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "packages", "cli", "scripts", "bundle-plugins.mjs")
    const ask = (env: Record<string, string>) =>
      execFileSync(process.execPath, ["--input-type=module", "-e", `const m = await import(${JSON.stringify(plugins)}); console.log(JSON.stringify(m.serveScriptSourcemap(process.env)))`], {
        env: { PATH: process.env.PATH ?? "", ...env },
        encoding: "utf8"
      }).trim()
    expect(ask({ COSTLINE_BUNDLE_SOURCEMAP: "1" })).toBe('"external"')
    expect(ask({})).toBe("false")
  })

  it("shortens a source to its package's path", () => {
    expect(shortSource("../../../../node_modules/@effect/sql/src/internal/statement.ts")).toBe("@effect/sql/src/internal/statement.ts")
    expect(shortSource("../../../store-sqlite/src/SqliteClient.ts")).toBe("store-sqlite/src/SqliteClient.ts")
  })

  it("reads a real profile of a bundled script through the map esbuild wrote", async () => {
    const dir = mkdtempSync(join(tmpdir(), "costline-cpu-profile-"))
    try {
      writeFileSync(join(dir, "busy.ts"), [
        "export const spin = (rounds: number): number => { let n = 0; for (let i = 0; i < rounds; i++) n = (n * 31 + i) % 1000003; return n }"
      ].join("\n"))
      writeFileSync(join(dir, "main.ts"), "import { spin } from './busy.js'\nconsole.log(spin(1e8) >= 0)\n")
      await build({ entryPoints: [join(dir, "main.ts")], outfile: join(dir, "out.cjs"), bundle: true, platform: "node", format: "cjs", sourcemap: "external", logLevel: "silent" })
      execFileSync(process.execPath, ["--cpu-prof", "--cpu-prof-dir", join(dir, "prof"), join(dir, "out.cjs")])
      const [file] = readdirSync(join(dir, "prof"))
      const profile = JSON.parse(readFileSync(join(dir, "prof", file!), "utf8")) as CpuProfile
      const result = report(profile, sourceMapping("out.cjs", readFileSync(join(dir, "out.cjs.map"), "utf8")))
      expect(result.byFile[0]!.name).toBe("busy.ts")
      expect(result.byFunction[0]!.name).toMatch(/^spin busy\.ts:1$/)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  }, 60_000)
})
