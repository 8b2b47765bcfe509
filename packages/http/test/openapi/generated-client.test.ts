/**
 * What an integrator does first: generate a client from each served document with an external
 * generator (openapi-typescript, calls through openapi-fetch), type-check a small program on it
 * with tsc, and run that program against the server. The programs are in `programs/`.
 */
import { Gcra } from "@costline/core"
import { layer } from "@effect/vitest"
import { Effect } from "effect"
import { execFile } from "node:child_process"
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { createRequire } from "node:module"
import { dirname, join } from "node:path"
import { fileURLToPath, pathToFileURL } from "node:url"
import { afterAll, expect } from "vitest"
import { upsertInsight } from "../support/Insights.js"
import { baseUrl, call, makeTestServer, seedTenant } from "../support/TestServer.js"

const ROOT = fileURLToPath(new URL("../../../../", import.meta.url))
const PROGRAMS = fileURLToPath(new URL("./programs/", import.meta.url))
// Its own workspace: openapi-typescript runs on the TypeScript 5 compiler API.
const GENERATOR = join(ROOT, "test-support/client-generators/node_modules/openapi-typescript/bin/cli.js")
const TSC = join(dirname(createRequire(import.meta.url).resolve("typescript/package.json")), "bin", "tsc")

// Under the root's node_modules, so the programs resolve openapi-fetch like an integrator's would.
mkdirSync(join(ROOT, "node_modules/.cache"), { recursive: true })
const directory = mkdtempSync(join(ROOT, "node_modules/.cache/costline-generated-client-"))
afterAll(() => rmSync(directory, { recursive: true, force: true }))

const run = (command: string, args: ReadonlyArray<string>) =>
  Effect.async<string, Error>((resume) => {
    execFile(process.execPath, [command, ...args], { cwd: directory }, (error, stdout, stderr) => {
      resume(error === null ? Effect.succeed(stdout) : Effect.fail(new Error(`${command} failed:\n${stdout}\n${stderr}`)))
    })
  })

/** Writes the served document and generates its types, `<name>.ts`. */
const generate = (name: string, path: string) =>
  Effect.gen(function*() {
    const document = join(directory, `${name}.json`)
    writeFileSync(document, (yield* call("GET", path)).text)
    yield* run(GENERATOR, [document, "--output", join(directory, `${name}.ts`)])
    copyFileSync(join(PROGRAMS, `${name}.program.ts`), join(directory, `${name}.program.ts`))
  })

const typeCheck = Effect.gen(function*() {
  writeFileSync(join(directory, "package.json"), JSON.stringify({ type: "module" }))
  writeFileSync(join(directory, "tsconfig.json"), JSON.stringify({
    compilerOptions: {
      target: "ES2022",
      module: "NodeNext",
      moduleResolution: "NodeNext",
      lib: ["ES2022", "DOM"],
      types: [],
      strict: true,
      noEmit: true,
      noUncheckedIndexedAccess: true
    },
    files: ["v2.ts", "v2.program.ts", "v1.ts", "v1.program.ts"]
  }))
  return yield* run(TSC, ["-p", join(directory, "tsconfig.json")])
})

interface V2Program {
  readonly run: (baseUrl: string, token: string, tenant: string) => Promise<{
    readonly withoutIfMatch: number
    readonly patched: { readonly status: string; readonly assignee: string | null; readonly updated: string }
    readonly group: { readonly id: string; readonly setId: string; readonly filter: unknown }
    readonly audited: ReadonlyArray<string>
  }>
}
interface V1Program {
  readonly run: (baseUrl: string, token: string, organization: string, setId: string, groupId: string) => Promise<{
    readonly created: string
    readonly replaced: unknown
    readonly groups: ReadonlyArray<string>
    readonly createdAt: string
  }>
}

const load = <A>(name: string) => Effect.promise(() => import(pathToFileURL(join(directory, `${name}.program.ts`)).href) as Promise<A>)

layer(makeTestServer({ rateLimit: Gcra.DEFAULT_POLICY }), { excludeTestServices: true })("generated clients", (it) => {
  it.effect("openapi-typescript generates a client from each document; a program on it type-checks and runs", () =>
    Effect.gen(function*() {
      yield* generate("v2", "/v2/openapi.json")
      yield* generate("v1", "/api/openapi.json")
      // Fails on any type error, and on an `@ts-expect-error` the types no longer refuse.
      yield* typeCheck

      const tenant = yield* seedTenant
      const insight = yield* upsertInsight(tenant.id, "ETL_WH")
      const base = yield* baseUrl

      const v2Program = yield* load<V2Program>("v2")
      const v2 = yield* Effect.promise(() => v2Program.run(base, tenant.adminKey, tenant.id))
      expect(v2.withoutIfMatch).toBe(428)
      expect(v2.patched).toMatchObject({ status: "in_progress", assignee: "ana@example.com" })
      expect(new Date(v2.patched.updated).toISOString()).toBe(v2.patched.updated)
      expect(v2.group.filter).toMatchObject({
        operator: "or",
        filters: [
          { field: { path: ["warehouse_name"] }, operator: "=", value: "ETL_WH" },
          { operator: "and", not: true, filters: [{ operator: "in" }, { field: { path: ["tags", "team"] } }] }
        ]
      })
      // Every change above was audited, and the poll read it back page by page.
      expect(v2.audited).toEqual(expect.arrayContaining([insight.id, v2.group.setId, v2.group.id]))

      const v1Program = yield* load<V1Program>("v1")
      const v1 = yield* Effect.promise(() => v1Program.run(base, tenant.adminKey, tenant.id, v2.group.setId, v2.group.id))
      expect(v1.created).toBe("Teams (v1)")
      expect(v1.replaced).toMatchObject({ operator: "and", filters: [{ operator: "ilike" }, { operator: "or" }] })
      expect(v1.groups).toEqual(["ETL (v1)"])
      expect(Number.isNaN(Date.parse(v1.createdAt))).toBe(false)
    }), 240_000)
})
