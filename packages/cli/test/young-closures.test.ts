/**
 * The bundle's dependencies with their closures kept young (`scripts/young-closures.mjs`): the
 * rewrite itself, the collector's behaviour it exists for, and the shipped server's script.
 */
import { parse } from "acorn"
import { spawnSync } from "node:child_process"
import { readFileSync } from "node:fs"
import { dirname, join } from "node:path"
import { describe, expect, it } from "vitest"
// @ts-expect-error: the build scripts are plain JavaScript, shipped as they are.
import { keepClosuresYoung } from "../scripts/young-closures.mjs"
import { BIN } from "./support.js"

const rewrite = (source: string): { readonly source: string; readonly rewritten: number } => keepClosuresYoung(source)

/** Bytes V8 promoted to the old generation per iteration of `script` (`--trace-gc-nvp`; on the interpreter alone, where no compiler changes what is allocated). */
const promotedPerIteration = (script: string, iterations: number): number => {
  const run = spawnSync(process.execPath, ["--jitless", "--max-semi-space-size=1", "--trace-gc-nvp", "--input-type=module", "-e", script], {
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024
  })
  expect(run.status, run.stderr).toBe(0)
  const promoted = [...run.stdout.matchAll(/gc=s .* promoted=(\d+)/g)].map((match) => Number(match[1]))
  expect(promoted.length).toBeGreaterThan(10)
  return promoted.reduce((sum, bytes) => sum + bytes, 0) / iterations
}

describe("closures kept young", () => {
  it("wraps a function literal assigned to a property as (0, …), and nothing else", () => {
    const source = [
      "a.b = () => 1;",
      "a[k] = function named() { return 2 };",
      "a.c = async (x) => x;",
      "a.d = () => (e.f = function () { return 3 });",
      "g = () => 4;",
      "a.h = g;",
      "const o = { i: () => 5 };"
    ].join("\n")
    const result = rewrite(source)
    expect(result.rewritten).toBe(5)
    expect(result.source).toBe([
      "a.b = (0, () => 1);",
      "a[k] = (0, function named() { return 2 });",
      "a.c = (0, async (x) => x);",
      "a.d = (0, () => (e.f = (0, function () { return 3 })));",
      "g = () => 4;",
      "a.h = g;",
      "const o = { i: () => 5 };"
    ].join("\n"))
  })

  it("leaves a module without such an assignment as it is, and parses scripts as well as modules", () => {
    expect(rewrite("export const x = 1")).toEqual({ source: "export const x = 1", rewritten: 0 })
    // A private field is a property to V8's parser too.
    expect(rewrite("class C { #f; constructor() { this.#f = () => 1 } }").source).toBe("class C { #f; constructor() { this.#f = (0, () => 1) } }")
    // A CommonJS module's top-level return is not a module's syntax.
    expect(rewrite("if (x) return;\nmodule.exports = function () {}").rewritten).toBe(1)
  })

  it("keeps a statement ended by an inserted semicolon ended", () => {
    // Without the semicolon the wrapped arrow would be called with `(1)`, indexed by `[0]`, added to `+x`.
    const source = "a.f = () => {}\n(1)\na.g = () => {} // done\n[0]\na.h = () => {}\n+x\nc ? a.i = () => {} : 0"
    const { source: rewritten } = rewrite(source)
    expect(rewritten).toBe("a.f = (0, () => {});\n(1)\na.g = (0, () => {}); // done\n[0]\na.h = (0, () => {});\n+x\nc ? a.i = (0, () => {}) : 0")
    const run = (text: string) => new Function("x", "c", `const a = {}; ${text}; return [typeof a.f, typeof a.g, typeof a.h, typeof a.i]`)(1, true)
    expect(run(rewritten)).toEqual(run(source))
  })

  it("behaves as before: the same values, no name either way", () => {
    const { source, rewritten } = rewrite("const a = {}; a.f = () => 7; a.g = function () { return this.f() + 1 }; return [a.f(), a.g(), a.f.name, a.g.name]")
    expect(rewritten).toBe(2)
    expect(new Function(source)()).toEqual([7, 8, "", ""])
  })

  it("keeps a per-call closure assigned to a property out of the old generation", { timeout: 60_000 }, () => {
    // A request's state (`held`), closed over by a closure stored on a new object: V8 allocates
    // the closure old when the literal is assigned straight to the property, and promotes `held`.
    const program = (body: string) =>
      `const junk = () => { const a = []; for (let i = 0; i < 100; i++) a.push({ i, s: "x" + i }); return a }
       class Op { constructor() { this.f = null } }
       let sink = 0
       for (let i = 0; i < 20000; i++) { const held = junk(); const op = new Op(); ${body}; sink += op.f() }
       if (sink < 0) console.log(sink)`
    const direct = "op.f = () => held.length"
    expect(rewrite(direct).source).toBe("op.f = (0, () => held.length)")
    const before = promotedPerIteration(program(direct), 20000)
    const after = promotedPerIteration(program(rewrite(direct).source), 20000)
    // All of `held` (~6 KB) before; next to nothing after.
    expect(before).toBeGreaterThan(3000)
    expect(after).toBeLessThan(100)
  })

  it("leaves no function literal assigned to a property in the shipped server's script but prototype methods", { timeout: 60_000 }, () => {
    const script = join(dirname(dirname(BIN)), "dist", "bundle", "serve.cjs")
    const text = readFileSync(script, "utf8").replace(/^\/\/.*\n/, "")
    const found: Array<string> = []
    const visit = (node: unknown): void => {
      if (node === null || typeof node !== "object") return
      const n = node as { type?: string; operator?: string; left?: { type: string; start: number; end: number }; right?: { type: string } }
      if (n.type === "AssignmentExpression" && n.operator === "=" && n.left?.type === "MemberExpression" && /^(Arrow)?FunctionExpression$/.test(n.right?.type ?? "")) {
        const target = text.slice(n.left.start, n.left.end)
        if (!/\.prototype\.[\w$]+$/.test(target)) found.push(target)
      }
      for (const value of Object.values(node)) {
        if (Array.isArray(value)) value.forEach(visit)
        else if (value !== null && typeof value === "object" && typeof (value as { type?: unknown }).type === "string") visit(value)
      }
    }
    visit(parse(text, { ecmaVersion: "latest", sourceType: "script", allowReturnOutsideFunction: true }))
    expect(found).toEqual([])
  })
})
