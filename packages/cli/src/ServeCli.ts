/**
 * `costline serve` alone: the same command under the same root, without the other commands, so
 * that a server's start loads and evaluates only what serving needs. The bundle is split at the
 * `import()` of this module and of `Cli.ts` in `bin.ts` (docs/decisions.md, "Cold start").
 */
import { Command } from "@effect/cli"
import { serve } from "./commands/serve.js"
import { ROOT } from "./Root.js"

export const run = Command.run(Command.make(ROOT.name).pipe(Command.withSubcommands([serve])), ROOT)
