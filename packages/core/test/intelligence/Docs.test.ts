/** docs/cost-intelligence.md documents every threshold with the default the code has. */
import { describe, expect, it } from "@effect/vitest"
import { readFileSync } from "node:fs"
import { DEFAULT_THRESHOLDS } from "../../src/intelligence/Settings.js"

const docs = readFileSync(new URL("../../../../docs/cost-intelligence.md", import.meta.url), "utf8")

describe("docs/cost-intelligence.md", () => {
  it.each(Object.entries(DEFAULT_THRESHOLDS))("the settings table gives %s its default %s", (key, value) => {
    const row = docs.split("\n").find((line) => line.startsWith("|") && line.includes(`\`${key}\``))
    expect(row).toBeDefined()
    const cells = row!.split("|").map((cell) => cell.trim())
    expect(cells[cells.indexOf(`\`${key}\``) + 1]).toBe(String(value))
  })
})
