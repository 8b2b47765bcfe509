/** The docs page at `/docs`: Swagger UI served from the installed package, nothing from elsewhere. */
import { layer } from "@effect/vitest"
import { Effect } from "effect"
import { readFileSync } from "node:fs"
import { createRequire } from "node:module"
import { dirname, join } from "node:path"
import { ServerResponse } from "node:http"
import { expect, vi } from "vitest"
import { checkDocsPage, loadedUrls, resolvePath } from "../../../test-support/docsPage.js"
import { baseUrl, call, makeTestServer } from "./support/TestServer.js"

const swaggerUiDist = dirname(createRequire(import.meta.url).resolve("swagger-ui-dist/package.json"))

layer(makeTestServer(), { excludeTestServices: true })("the docs page", (it) => {
  it.effect("the OpenAPI documents are encoded once: every answer writes the same bytes (anyone may ask, as often as they like)", () =>
    Effect.gen(function*() {
      const written: Array<unknown> = []
      const end = ServerResponse.prototype.end
      const spy = vi.spyOn(ServerResponse.prototype, "end").mockImplementation(function(this: ServerResponse, ...args: Array<any>) {
        if (args[0] instanceof Uint8Array && args[0].length > 100_000) written.push(args[0])
        return end.apply(this, args as Parameters<typeof end>)
      })
      try {
        for (let i = 0; i < 3; i++) expect((yield* call("GET", "/v2/openapi.json")).status).toBe(200)
      } finally {
        spy.mockRestore()
      }
      expect(written).toHaveLength(3)
      expect(written[1]).toBe(written[0])
      expect(written[2]).toBe(written[0])
    }))

  it.effect("is an HTML page that loads only files of this server, by URLs relative to itself", () =>
    Effect.gen(function*() {
      const page = yield* call("GET", "/docs")
      expect(page.status).toBe(200)
      expect(page.headers.get("content-type")).toBe("text/html; charset=utf-8")
      expect(page.headers.get("content-security-policy")).toContain("default-src 'self'")
      const urls = loadedUrls(page.text)
      expect(urls).toContain("docs/swagger-ui-bundle.js")
      // Relative, so that a host serving the API under a prefix serves a working page too.
      expect(urls.every((url) => url.startsWith("docs/"))).toBe(true)
      expect(page.text).not.toMatch(/https?:\/\//)
    }))

  it.effect("serves every file the page loads, the Swagger UI ones byte for byte from swagger-ui-dist", () =>
    Effect.gen(function*() {
      const page = yield* call("GET", "/docs")
      const base = yield* baseUrl
      for (const url of loadedUrls(page.text)) {
        const path = resolvePath(url, "/docs")
        const asset = yield* Effect.promise(() => fetch(`${base}${path}`))
        expect(asset.status).toBe(200)
        const bytes = Buffer.from(yield* Effect.promise(() => asset.arrayBuffer()))
        const name = path.slice("/docs/".length)
        if (name !== "init.js") expect(bytes.equals(readFileSync(join(swaggerUiDist, name)))).toBe(true)
      }
      const css = yield* call("GET", "/docs/swagger-ui.css")
      expect(css.headers.get("content-type")).toBe("text/css; charset=utf-8")
    }))

  it.effect("starts Swagger UI on both documents of this server, whose requests go to this server", () =>
    Effect.gen(function*() {
      const script = yield* call("GET", "/docs/init.js")
      expect(script.headers.get("content-type")).toBe("text/javascript; charset=utf-8")
      const base = yield* baseUrl
      const documents = yield* Effect.promise(() => checkDocsPage((path, init) => fetch(`${base}${path}`, init), ""))
      expect(documents).toEqual(["/v2/openapi.json", "/api/openapi.json"])
    }))

  it.effect("is where / leads", () =>
    Effect.gen(function*() {
      const base = yield* baseUrl
      for (const method of ["GET", "HEAD"]) {
        const root = yield* Effect.promise(() => fetch(`${base}/`, { method, redirect: "manual" }))
        expect(root.status).toBe(302)
        expect(root.headers.get("location")).toBe("/docs")
      }
      expect((yield* call("POST", "/", { json: {} })).status).toBe(405)
    }))

  it.effect("serves no other file of the package, and only reads", () =>
    Effect.gen(function*() {
      expect((yield* call("GET", "/docs/package.json")).status).toBe(404)
      expect((yield* call("GET", "/docs/swagger-initializer.js")).status).toBe(404)
      const post = yield* call("POST", "/docs", { json: {} })
      expect(post.status).toBe(405)
      expect(post.headers.get("allow")).toBe("GET, HEAD")
    }))
})
