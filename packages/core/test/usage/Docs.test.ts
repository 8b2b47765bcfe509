/** docs/usage-groups.md documents the catalogue as the code has it. */
import { describe, expect, it } from "@effect/vitest"
import { readFileSync } from "node:fs"
import { CATALOGUE, OPERATORS } from "../../src/usage/Dimensions.js"

const docs = readFileSync(new URL("../../../../docs/usage-groups.md", import.meta.url), "utf8")

/** The catalogue table's row of a dimension: its path cell, then type, scopes and description. */
const rowOf = (path: string) => docs.split("\n").find((line) => line.startsWith(`| \`${path}`))

describe("docs/usage-groups.md", () => {
  it.each(CATALOGUE.map((dimension) => [dimension.path.join("."), dimension] as const))("documents %s", (_, dimension) => {
    const row = rowOf(dimension.path.join("."))
    expect(row).toBeDefined()
    expect(row).toContain(dimension.description)
    const scopes = dimension.scopes.length === 4 ? "all" : dimension.scopes.join(", ")
    expect(row).toContain(`| ${scopes} |`)
  })

  it.each(Object.entries(OPERATORS))("lists the operators of %s dimensions", (_, operators) => {
    const row = docs.split("\n").find((line) => operators.every((op) => line.includes(`\`${op}\``)) && line.split("`").length === operators.length * 2 + 1)
    expect(row).toBeDefined()
  })
})
