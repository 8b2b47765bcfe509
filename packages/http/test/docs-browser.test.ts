/**
 * The docs page in a real browser (headless Chromium driven by playwright-core): authorize with
 * an API key (and the tenant, where the document offers it as a credential), try
 * `GET /v2/insights`, get 200 — at `/docs` of the bundled server and under a host's base path.
 * Debian's `chromium` is the browser (`.ci/run` installs it when it is missing); without it this
 * test fails, it is never skipped.
 */
import { Actor, ApiKeys, Organizations } from "@costline/core"
import type { Ids } from "@costline/core"
import { makeHandler } from "@costline/http"
import { SqliteStore } from "@costline/store-sqlite"
import { layer } from "@effect/vitest"
import { Effect } from "effect"
import { existsSync, mkdtempSync, rmSync } from "node:fs"
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { type Browser, chromium } from "playwright-core"
import { afterAll, expect } from "vitest"
import { contractSecrets } from "@costline/store-contract"
import { baseUrl, makeTestServer } from "./support/TestServer.js"

/** Where Debian (and Ubuntu) put Chromium; `CHROMIUM_PATH` names another. */
const CHROMIUM_CANDIDATES = ["/usr/bin/chromium", "/usr/bin/chromium-browser"]

const chromiumPath = (): string => {
  const path = process.env["CHROMIUM_PATH"] ?? CHROMIUM_CANDIDATES.find(existsSync)
  if (path === undefined) {
    throw new Error(`no Chromium at ${CHROMIUM_CANDIDATES.join(" or ")}: apt-get install -y chromium (.ci/run does)`)
  }
  return path
}

/** A headless browser for the scope. */
const browser = Effect.acquireRelease(
  Effect.promise(() => chromium.launch({ executablePath: chromiumPath(), args: ["--no-sandbox"] })),
  (browser) => Effect.promise(() => browser.close())
)

/** Swagger UI renders both documents' operations in the browser: slow on a loaded machine. */
const RENDER_TIMEOUT = 120_000

interface Tried {
  readonly status: number
  readonly url: string
  readonly headers: Record<string, string>
  readonly shownStatus: string
  readonly prefilledTenant: string | undefined
}

/** What a person does on the page at `${base}/docs`: Authorize, then Try it out on `GET /v2/insights`. */
const tryListInsights = (browser: Browser, base: string, credentials: { token: string; tenant: string }) =>
  Effect.promise(async (): Promise<Tried> => {
    const page = await browser.newPage()
    try {
      await page.goto(`${base}/docs`)
      await page.locator(".opblock").first().waitFor({ timeout: RENDER_TIMEOUT })

      await page.locator(".auth-wrapper button.authorize").click()
      const dialog = page.locator(".modal-ux")
      for (const scheme of await dialog.locator(".auth-container").all()) {
        // The bearer token, and the tenant where the document also offers it as a credential.
        const isTenant = (await scheme.innerText()).includes("x-tenant-id")
        await scheme.locator("input").first().fill(isTenant ? credentials.tenant : credentials.token)
        await scheme.locator("button.authorize").click()
      }
      await dialog.locator("button.btn-done, button.close-modal").first().click()

      const operation = page.locator(".opblock-get").filter({
        has: page.locator(".opblock-summary-path[data-path=\"/v2/insights\"]")
      })
      await operation.locator(".opblock-summary-control").click()
      await operation.locator(".try-out__btn").click()
      const tenantField = operation.locator("tr[data-param-name=\"x-tenant-id\"] input")
      const prefilledTenant = await tenantField.count() === 0 ? undefined : await tenantField.inputValue()

      const [response] = await Promise.all([
        page.waitForResponse((response) => new URL(response.url()).pathname.endsWith("/v2/insights")),
        operation.locator(".execute").click()
      ])
      const shown = operation.locator(".live-responses-table tbody .response-col_status").first()
      await shown.waitFor()
      return {
        status: response.status(),
        url: response.url(),
        headers: await response.request().allHeaders(),
        shownStatus: (await shown.innerText()).trim(),
        prefilledTenant
      }
    } finally {
      await page.close()
    }
  })

/** An organization with an admin API key. */
const seedOrganization = (id: string) =>
  Effect.gen(function*() {
    yield* (yield* Organizations.Organizations).create({ id: id as Ids.OrganizationId, name: id })
    const { token } = yield* (yield* ApiKeys.ApiKeys).create(Actor.Actor.system(), id as Ids.OrganizationId, { name: "docs", access: "admin", scopes: ["*"] })
    return { token, tenant: id }
  })

const expectListed = (tried: Tried, base: string, credentials: { token: string; tenant: string }) => {
  expect(tried.url).toBe(`${base}/v2/insights`)
  expect(tried.status).toBe(200)
  expect(tried.shownStatus).toBe("200")
  // The organization's own tenant, pre-filled: no made-up `acme` to replace first.
  if (tried.prefilledTenant !== undefined) expect(tried.prefilledTenant).toBe(credentials.tenant)
  expect(tried.headers["x-tenant-id"]).toBe(credentials.tenant)
  expect(tried.headers["authorization"]).toBe(`Bearer ${credentials.token}`)
  // Each try gets its own request id from the server, not one fixed by an example.
  expect(tried.headers["x-request-id"]).toBeUndefined()
}

const directory = mkdtempSync(join(tmpdir(), "costline-docs-browser-"))
afterAll(() => rmSync(directory, { recursive: true, force: true }))
const store = SqliteStore.layer({ filename: join(directory, "costline.db") })

layer(makeTestServer({ store }), { excludeTestServices: true })("the docs page in Chromium", (it) => {
  it.scoped("at /docs: authorize, try GET /v2/insights for the demo organization, 200", () =>
    Effect.gen(function*() {
      const credentials = yield* seedOrganization("demo")
      const base = yield* baseUrl
      const tried = yield* tryListInsights(yield* browser, base, credentials)
      expectListed(tried, base, credentials)
    }), { timeout: 3 * RENDER_TIMEOUT })

  it.scoped("under a host's base path, with the host's docsTenant: the same, every request below the prefix", () =>
    Effect.gen(function*() {
      const credentials = yield* seedOrganization("acme-corp")
      const handler = makeHandler({ store, secrets: contractSecrets, rateLimit: false, basePath: "/cost", docsTenant: "acme-corp" })
      yield* Effect.addFinalizer(() => Effect.promise(() => handler.dispose()))
      const server = createServer(handler)
      yield* Effect.acquireRelease(
        Effect.async<void>((resume) => void server.listen(0, "127.0.0.1", () => resume(Effect.void))),
        () => Effect.async<void>((resume) => void server.close(() => resume(Effect.void)))
      )
      const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/cost`
      const tried = yield* tryListInsights(yield* browser, base, credentials)
      expectListed(tried, base, credentials)
    }), { timeout: 3 * RENDER_TIMEOUT })
})
