/** The docs page at `/docs`: Swagger UI served from the installed package, nothing from elsewhere. */
import { layer } from "@effect/vitest"
import { Effect } from "effect"
import { readFileSync } from "node:fs"
import { createRequire } from "node:module"
import { dirname, join } from "node:path"
import { expect } from "vitest"
import { baseUrl, call, makeTestServer } from "./support/TestServer.js"

const swaggerUiDist = dirname(createRequire(import.meta.url).resolve("swagger-ui-dist/package.json"))

/** The URLs a page loads: `src` and `href` attribute values. */
const loadedUrls = (html: string) => Array.from(html.matchAll(/(?:src|href)="([^"]+)"/g), ([, url]) => url!)

layer(makeTestServer(), { excludeTestServices: true })("the docs page", (it) => {
  it.effect("is an HTML page that loads only files of this server", () =>
    Effect.gen(function*() {
      const page = yield* call("GET", "/docs")
      expect(page.status).toBe(200)
      expect(page.headers.get("content-type")).toBe("text/html; charset=utf-8")
      expect(page.headers.get("content-security-policy")).toContain("default-src 'self'")
      const urls = loadedUrls(page.text)
      expect(urls).toContain("/docs/swagger-ui-bundle.js")
      expect(urls.every((url) => url.startsWith("/docs/"))).toBe(true)
      expect(page.text).not.toMatch(/https?:\/\//)
    }))

  it.effect("serves every file the page loads, the Swagger UI ones byte for byte from swagger-ui-dist", () =>
    Effect.gen(function*() {
      const page = yield* call("GET", "/docs")
      const base = yield* baseUrl
      for (const url of loadedUrls(page.text)) {
        const asset = yield* Effect.promise(() => fetch(`${base}${url}`))
        expect(asset.status).toBe(200)
        const bytes = Buffer.from(yield* Effect.promise(() => asset.arrayBuffer()))
        const name = url.slice("/docs/".length)
        if (name !== "init.js") expect(bytes.equals(readFileSync(join(swaggerUiDist, name)))).toBe(true)
      }
      const css = yield* call("GET", "/docs/swagger-ui.css")
      expect(css.headers.get("content-type")).toBe("text/css; charset=utf-8")
    }))

  it.effect("starts Swagger UI on both documents of this server", () =>
    Effect.gen(function*() {
      const script = yield* call("GET", "/docs/init.js")
      expect(script.headers.get("content-type")).toBe("text/javascript; charset=utf-8")
      expect(script.text).toContain("\"/v2/openapi.json\"")
      expect(script.text).toContain("\"/api/openapi.json\"")
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
