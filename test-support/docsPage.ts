/**
 * The docs page as a browser meets it: the URLs the page loads, resolved against the page's own
 * URL, the documents its start-up script names, and the server each document points "Try it out"
 * at (a URL relative to the document). Shared by the http tests and every mounting example.
 */
import { expect } from "vitest"

export type Fetch = (path: string, init?: RequestInit) => Response | Promise<Response>

/** Only paths matter here; the origin is the server's, whatever it is. */
const ORIGIN = "http://costline.test"

/** `relative` resolved against the path `against`, as a browser would: a path of the same origin. */
export const resolvePath = (relative: string, against: string): string => {
  const url = new URL(relative, new URL(against, ORIGIN))
  expect(url.origin, `${relative} leaves the server`).toBe(ORIGIN)
  return url.pathname
}

/** The `src` and `href` values of a page. */
export const loadedUrls = (html: string): ReadonlyArray<string> =>
  Array.from(html.matchAll(/(?:src|href)="([^"]+)"/g), ([, url]) => url!)

/** The document URLs of the page's start-up script (`urls: [{ url: "…", … }]`). */
export const documentUrls = (script: string): ReadonlyArray<string> =>
  Array.from(script.matchAll(/\burl: "([^"]+)"/g), ([, url]) => url!)

/** The path a document's first server names, resolved against the document's path; "" for the root. */
export const serverPath = (document: { readonly servers: ReadonlyArray<{ readonly url: string }> }, documentPath: string) =>
  resolvePath(document.servers[0]!.url, documentPath).replace(/\/$/, "")

/**
 * What a browser does with `${prefix}/docs`: `${prefix}` leads to it, every file it loads is
 * there, and both documents are, each pointing its requests at `${prefix}`. Returns the paths of
 * the documents.
 */
export const checkDocsPage = async (request: Fetch, prefix: string): Promise<ReadonlyArray<string>> => {
  const root = await request(prefix === "" ? "/" : prefix, { redirect: "manual" })
  expect(root.status).toBe(302)
  expect(root.headers.get("location")).toBe(`${prefix}/docs`)

  const pagePath = `${prefix}/docs`
  const page = await request(pagePath)
  expect(page.status).toBe(200)
  const urls = loadedUrls(await page.text())
  expect(urls.length).toBeGreaterThan(0)
  let script = ""
  for (const url of urls) {
    const path = resolvePath(url, pagePath)
    const asset = await request(path)
    expect({ path, status: asset.status }).toEqual({ path, status: 200 })
    const text = await asset.text()
    if (path.endsWith("/init.js")) script = text
  }
  const documents = documentUrls(script).map((url) => resolvePath(url, pagePath))
  expect(documents).toEqual([`${prefix}/v2/openapi.json`, `${prefix}/api/openapi.json`])
  for (const path of documents) {
    const document = await request(path)
    expect(document.status).toBe(200)
    expect(serverPath(await document.json() as Parameters<typeof serverPath>[0], path)).toBe(prefix)
  }
  return documents
}
