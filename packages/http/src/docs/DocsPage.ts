/**
 * The interactive documentation at `/docs`: Swagger UI from the installed `swagger-ui-dist`
 * package, its files read from node_modules (the machine may have no internet, and a docs page
 * should not call a CDN anyway), rendering both OpenAPI documents. Every URL the page uses is
 * relative to the page, so it works unchanged under any prefix a host serves the API under.
 */
import { HttpServerResponse } from "@effect/platform"
import { Effect } from "effect"
import { readFile } from "node:fs/promises"
import { createRequire } from "node:module"
import { dirname, join } from "node:path"
import { V1_PREFIX, V2_PREFIX } from "../api/Versions.js"

export const PATH = "/docs"

/** The page's URLs, relative to `…/docs` itself: `docs/x` is `/docs/x`, `/cost/docs/x` under `/cost`. */
const NAME = PATH.slice(1)

/** The Swagger UI files the page loads; nothing else in the package is ever served. */
const ASSETS: Readonly<Record<string, string>> = {
  "swagger-ui.css": "text/css; charset=utf-8",
  "swagger-ui-bundle.js": "text/javascript; charset=utf-8",
  "swagger-ui-standalone-preset.js": "text/javascript; charset=utf-8",
  "favicon-32x32.png": "image/png",
  "favicon-16x16.png": "image/png"
}

/** Where npm put swagger-ui-dist, as Node resolves it from this package. */
const assetDirectory = () => dirname(createRequire(import.meta.url).resolve("swagger-ui-dist/package.json"))

/** Our own start-up script (the package's sample one points at a remote demo document). */
const INIT_SCRIPT = `window.onload = function () {
  window.ui = SwaggerUIBundle({
    urls: [
      { url: "${V2_PREFIX.slice(1)}/openapi.json", name: "v2" },
      { url: "${V1_PREFIX.slice(1)}/openapi.json", name: "v1 (deprecated)" }
    ],
    "urls.primaryName": "v2",
    dom_id: "#swagger-ui",
    deepLinking: true,
    presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],
    layout: "StandaloneLayout"
  })
}
`

const HTML = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8">
    <title>costline API</title>
    <link rel="stylesheet" href="${NAME}/swagger-ui.css">
    <link rel="icon" type="image/png" href="${NAME}/favicon-32x32.png" sizes="32x32">
    <link rel="icon" type="image/png" href="${NAME}/favicon-16x16.png" sizes="16x16">
  </head>
  <body>
    <div id="swagger-ui"></div>
    <script src="${NAME}/swagger-ui-bundle.js"></script>
    <script src="${NAME}/swagger-ui-standalone-preset.js"></script>
    <script src="${NAME}/init.js"></script>
  </body>
</html>
`

/** Everything from this origin; Swagger UI styles elements inline and draws icons from data URLs. */
const SECURITY_HEADERS = {
  "content-security-policy": "default-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:",
  "x-content-type-options": "nosniff"
}

/**
 * `GET /` leads to the page. Absolute, so that under a base path the mount puts the prefix back
 * on it as on every `Location`.
 */
export const ROOT = "/"
export const toPage = HttpServerResponse.empty({ status: 302, headers: { location: PATH } })

export const page = HttpServerResponse.text(HTML, { contentType: "text/html; charset=utf-8", headers: SECURITY_HEADERS })

const initScript = HttpServerResponse.text(INIT_SCRIPT, {
  contentType: "text/javascript; charset=utf-8",
  headers: SECURITY_HEADERS
})

/**
 * The files of the page by name, read once and kept: they never change while the process runs.
 * Undefined for a name that is not one of them.
 */
export const makeAssets = () => {
  const cache = new Map<string, Promise<Buffer>>()
  const read = (name: string) => {
    const cached = cache.get(name) ?? readFile(join(assetDirectory(), name))
    cache.set(name, cached)
    return cached
  }
  return (name: string): Effect.Effect<HttpServerResponse.HttpServerResponse> | undefined => {
    if (name === "init.js") return Effect.succeed(initScript)
    const contentType = ASSETS[name]
    if (contentType === undefined) return undefined
    // A missing file is a broken installation, not a client error.
    return Effect.map(Effect.promise(() => read(name)), (bytes) =>
      HttpServerResponse.uint8Array(bytes, {
        contentType,
        headers: { ...SECURITY_HEADERS, "cache-control": "public, max-age=86400" }
      }))
  }
}
