/** The root of the `costline` command tree, shared by the whole tree (`Cli.ts`) and `serve` alone (`ServeCli.ts`). */
export const ROOT = { name: "costline", version: "0.1.0" } as const
