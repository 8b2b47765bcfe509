/** Prints a results file (default bench/results/latest.json) as the Markdown table of docs/performance.md. */
import { readFileSync } from "node:fs"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import { markdownTable, type ResultRow } from "./lib/Report.js"

const path = process.argv.slice(2).find((arg) => arg !== "--") ??
  join(dirname(fileURLToPath(import.meta.url)), "results", "latest.json")
const results = JSON.parse(readFileSync(path, "utf8")) as { scenarios: ReadonlyArray<ResultRow> }
console.log(markdownTable(results.scenarios))
