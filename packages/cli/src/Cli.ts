/** The `costline` command tree: the stable CLI contract of API-DECISIONS.md. */
import { Command } from "@effect/cli"
import { audit } from "./commands/audit.js"
import { dwAccounts } from "./commands/dwAccounts.js"
import { ingest } from "./commands/ingest.js"
import { insights } from "./commands/insights.js"
import { invitations } from "./commands/invitations.js"
import { keys } from "./commands/keys.js"
import { migrate } from "./commands/migrate.js"
import { orgCommand } from "./commands/org.js"
import { orgs } from "./commands/orgs.js"
import { secrets } from "./commands/secrets.js"
import { seed } from "./commands/seed.js"
import { serve } from "./commands/serve.js"
import { usage } from "./commands/usage.js"
import { sessions } from "./commands/sessions.js"
import { users } from "./commands/users.js"
import { ROOT } from "./Root.js"

export const root = Command.make(ROOT.name).pipe(
  Command.withSubcommands([serve, migrate, orgs, keys, sessions, users, invitations, orgCommand, dwAccounts, secrets, usage, insights, ingest, audit, seed])
)

export const run = Command.run(root, ROOT)
