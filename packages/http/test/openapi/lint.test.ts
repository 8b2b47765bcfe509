/** The served documents pass `redocly lint` (recommended ruleset) with no error and no warning. */
import { Gcra } from "@costline/core"
import { layer } from "@effect/vitest"
import { Effect } from "effect"
import { execFile } from "node:child_process"
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { createRequire } from "node:module"
import { tmpdir } from "node:os"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import { afterAll, expect } from "vitest"
import { call, makeTestServer } from "../support/TestServer.js"

const CLI = join(dirname(createRequire(import.meta.url).resolve("@redocly/cli/package.json")), "bin", "cli.js")
const CONFIG = fileURLToPath(new URL("./redocly.yaml", import.meta.url))

const directory = mkdtempSync(join(tmpdir(), "costline-openapi-"))
afterAll(() => rmSync(directory, { recursive: true, force: true }))

interface LintReport {
  readonly totals: { readonly errors: number; readonly warnings: number }
  readonly problems: ReadonlyArray<{ readonly ruleId: string; readonly message: string }>
}

const lint = (file: string) =>
  Effect.async<LintReport, Error>((resume) => {
    execFile(
      process.execPath,
      [CLI, "lint", file, "--config", CONFIG, "--format=json"],
      // No telemetry, no update check: the machine may have no network at all.
      { env: { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true" } },
      (_error, stdout, stderr) => {
        try {
          resume(Effect.succeed(JSON.parse(stdout) as LintReport))
        } catch {
          resume(Effect.fail(new Error(`redocly printed no report: ${stderr}`)))
        }
      }
    )
  })

layer(makeTestServer({ rateLimit: Gcra.DEFAULT_POLICY }), { excludeTestServices: true })("redocly lint", (it) => {
  for (const path of ["/v2/openapi.json", "/api/openapi.json"]) {
    it.effect(`${path} is clean`, () =>
      Effect.gen(function*() {
        const file = join(directory, path.replaceAll("/", "_"))
        writeFileSync(file, (yield* call("GET", path)).text)
        const report = yield* lint(file)
        expect(report.problems.map(({ message, ruleId }) => `${ruleId}: ${message}`)).toEqual([])
        expect(report.totals).toMatchObject({ errors: 0, warnings: 0 })
      }))
  }
})
