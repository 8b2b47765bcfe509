/**
 * Where the analysis worker's entry point is: beside this module in `dist/`. The CLI's bundle
 * replaces this module with one that points at its own copy (`scripts/bundle.mjs`), and the
 * tests, which run the TypeScript sources, with one that runs the sources.
 */
export const sqlWorkerEntry = (): URL => new URL("./SqlWorker.js", import.meta.url)
