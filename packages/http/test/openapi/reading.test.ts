/**
 * The documents read as documentation on the docs page: groups named in words, each described,
 * and no text that only makes sense inside this repository.
 */
import { layer } from "@effect/vitest"
import { Effect } from "effect"
import { expect } from "vitest"
import { type Document, operations } from "../../src/openapi/index.js"
import { call, makeTestServer } from "../support/TestServer.js"

/** A repository path given as text: `docs/api.md`, `packages/http/src/…`. */
const REPOSITORY_PATH = /\b[\w-]+\/[\w./-]+\.(md|ts|js|json|yaml)\b/

layer(makeTestServer(), { excludeTestServices: true })("the documents as the docs page shows them", (it) => {
  for (const path of ["/v2/openapi.json", "/api/openapi.json"]) {
    it.effect(`${path}: every tag is a name in words with a description of its own`, () =>
      Effect.gen(function*() {
        const document: Document = (yield* call("GET", path)).body
        expect(document.tags.length).toBeGreaterThan(0)
        for (const tag of document.tags) {
          // Capitalised words, no identifiers: "SSO groups", not "ssoGroups".
          expect(tag.name).toMatch(/^[A-Z][A-Za-z]*( [A-Za-z]+)*$/)
          expect(tag.name).not.toMatch(/[a-z][A-Z]/)
          expect(tag.description).toMatch(/^[A-Z].{20,}\.$/)
          expect(tag.description).not.toContain("Operations of the")
        }
        expect(new Set(document.tags.map((tag) => tag.name)).size).toBe(document.tags.length)
        const tagged = new Set(operations(document).flatMap(({ operation }) => operation.tags))
        expect([...tagged].sort()).toEqual(document.tags.map((tag) => tag.name).sort())
      }))

    it.effect(`${path}: no description names a file of the repository`, () =>
      Effect.gen(function*() {
        const document: Document = (yield* call("GET", path)).body
        const texts = [
          document.info.description ?? "",
          ...document.tags.map((tag) => tag.description ?? ""),
          ...operations(document).flatMap(({ operation }) => [operation.summary ?? "", operation.description ?? ""])
        ]
        expect(texts.filter((text) => REPOSITORY_PATH.test(text))).toEqual([])
      }))
  }

  it.effect("the v2 groups are the spec's resources, in words", () =>
    Effect.gen(function*() {
      const document: Document = (yield* call("GET", "/v2/openapi.json")).body
      expect(document.tags.map((tag) => tag.name)).toEqual(expect.arrayContaining(["SSO groups", "User roles", "Ticket links", "API keys"]))
    }))
})
