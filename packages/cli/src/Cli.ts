/** The `costline` command tree: the stable CLI contract of API-DECISIONS.md. */
import { Command } from "@effect/cli"
import { keys } from "./commands/keys.js"
import { migrate } from "./commands/migrate.js"
import { seed } from "./commands/seed.js"
import { serve } from "./commands/serve.js"
import { sessions } from "./commands/sessions.js"
import { users } from "./commands/users.js"

export const root = Command.make("costline").pipe(
  Command.withSubcommands([serve, migrate, keys, sessions, users, seed])
)

export const run = Command.run(root, { name: "costline", version: "0.1.0" })
