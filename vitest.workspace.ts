// The test projects, one per package. vitest.config.ts imports this list (`test.projects`).
import { fileURLToPath } from "node:url"

const pkg = (name: string) => fileURLToPath(new URL(`./packages/${name}/src/`, import.meta.url))

// Tests run against the TypeScript sources, so a stale dist/ can never hide a change.
export const alias = {
  // The analysis worker threads too: their entry point bundled from the sources (test-support/analysis/SqlWorkerEntry.ts).
  "./SqlWorkerEntry.js": fileURLToPath(new URL("./test-support/analysis/SqlWorkerEntry.ts", import.meta.url)),
  "@costline/store-contract": `${pkg("store-contract")}index.ts`,
  "@costline/core": `${pkg("core")}index.ts`,
  "@costline/analysis/testing": `${pkg("analysis")}testing/index.ts`,
  "@costline/analysis": `${pkg("analysis")}index.ts`,
  "@costline/store-sql": `${pkg("store-sql")}index.ts`,
  "@costline/store-sqlite": `${pkg("store-sqlite")}index.ts`,
  "@costline/store-pg": `${pkg("store-pg")}index.ts`,
  "@costline/http/client": `${pkg("http")}client/index.ts`,
  "@costline/http": `${pkg("http")}index.ts`,
  "@costline/cli": `${pkg("cli")}index.ts`
}

const project = (name: string, extra: Record<string, unknown> = {}) => ({
  resolve: { alias },
  test: {
    name,
    root: `packages/${name}`,
    include: ["test/**/*.test.ts"],
    ...extra
  }
})

export default [
  // Generous: some core property tests run thousands of cases on a loaded machine.
  project("core", { testTimeout: 30_000 }),
  // Property tests parse thousands of queries: allow for a loaded machine.
  project("analysis", { testTimeout: 30_000 }),
  project("store-sqlite"),
  // One file at a time: the files share one server, and some measure timings on it.
  project("store-pg", {
    globalSetup: ["test/globalSetup.ts"],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    poolOptions: { forks: { singleFork: true } }
  }),
  // Generous: some http files start and stop a Postgres server of their own on a busy machine.
  project("http", { testTimeout: 60_000, hookTimeout: 120_000 }),
  // CLI tests start real processes, several per test: generous limits for a loaded 2-core machine.
  project("cli", { testTimeout: 180_000, hookTimeout: 180_000 }),
  // The benchmark harness's own rules (its baseline must speak costline's formats).
  { resolve: { alias }, test: { name: "bench", root: "bench", include: ["test/**/*.test.ts"] } },
  // The runnable examples, tested as their users would run them; Postgres as store-pg gets it.
  {
    resolve: { alias },
    test: {
      name: "examples",
      root: "examples",
      include: ["**/*.test.ts"],
      globalSetup: ["../test-support/postgres/globalSetup.ts"],
      testTimeout: 60_000,
      hookTimeout: 120_000,
      poolOptions: { forks: { singleFork: true } }
    }
  }
]
