// The test projects, one per package. vitest.config.ts imports this list (`test.projects`).
import { fileURLToPath } from "node:url"

const pkg = (name: string) => fileURLToPath(new URL(`./packages/${name}/src/`, import.meta.url))

// Tests run against the TypeScript sources, so a stale dist/ can never hide a change.
export const alias = {
  "@costline/core/testing": `${pkg("core")}testing/index.ts`,
  "@costline/core": `${pkg("core")}index.ts`,
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
  project("core"),
  project("store-sqlite"),
  project("store-pg", { globalSetup: ["test/globalSetup.ts"], testTimeout: 60_000, hookTimeout: 120_000 }),
  project("http"),
  project("cli", { testTimeout: 60_000 })
]
