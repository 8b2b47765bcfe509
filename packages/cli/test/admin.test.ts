/**
 * The operator's administration path, without code: organizations, keys (list, expiry, revoke by
 * id or name), sessions revoked by member, migration status.
 */
import { describe, expect, it } from "vitest"
import { existsSync } from "node:fs"
import { join } from "node:path"
import { costline, lastLine, scratchDir, startServer, stop } from "./support.js"

describe("costline administration (SQLite)", () => {
  it("orgs create makes an empty organization and prints its id last; orgs list shows it; a second create fails", async () => {
    const dir = scratchDir()
    const created = await costline(dir, "orgs", "create", "--org", "prod", "--name", "Production")
    expect(created.code).toBe(0)
    expect(lastLine(created.stdout)).toBe("prod")
    await costline(dir, "orgs", "create", "--org", "another")
    const listed = await costline(dir, "orgs", "list", "--json")
    expect(JSON.parse(listed.stdout).map((org: { id: string; name: string }) => [org.id, org.name])).toEqual([
      ["another", "another"],
      ["prod", "Production"]
    ])
    const table = await costline(dir, "orgs", "list")
    expect(table.stdout.split("\n")[0]).toMatch(/^id\s+name\s+created_at$/)
    const again = await costline(dir, "orgs", "create", "--org", "prod")
    expect(again.code).toBe(1)
    expect(again.stderr).toContain("already exists")
    const invalid = await costline(dir, "orgs", "create", "--org", "no spaces")
    expect(invalid.code).toBe(1)
    // Empty: no users, no keys (unlike seed).
    expect(JSON.parse((await costline(dir, "keys", "list", "--org", "prod", "--json")).stdout)).toEqual([])
  })

  it("keys create --expires --json, keys list never shows a token, keys revoke by name and by id", async () => {
    const dir = scratchDir()
    await costline(dir, "orgs", "create", "--org", "prod")
    const before = Date.now()
    const created = await costline(dir, "keys", "create", "--org", "prod", "--name", "ci", "--expires", "30d", "--json")
    expect(created.code).toBe(0)
    const key = JSON.parse(created.stdout)
    expect(key.token).toMatch(/^clk_/)
    expect(key.scopes).toEqual(["*"])
    const thirtyDays = 30 * 24 * 3600 * 1000
    expect(Date.parse(key.expires_at) - before).toBeGreaterThanOrEqual(thirtyDays)
    expect(Date.parse(key.expires_at) - before).toBeLessThan(thirtyDays + 60_000)

    const plain = await costline(dir, "keys", "create", "--org", "prod", "--name", "deploy", "--expires", "2999-01-31")
    expect(plain.stdout).toContain("expires 2999-01-31T00:00:00.000Z")
    expect(lastLine(plain.stdout)).toMatch(/^clk_/)
    const deployId = /id ([0-9a-f-]{36})/.exec(plain.stdout)?.[1]
    expect(deployId).toBeDefined()

    const listed = await costline(dir, "keys", "list", "--org", "prod", "--json")
    const views = JSON.parse(listed.stdout)
    expect(views.map((view: { name: string; status: string }) => [view.name, view.status])).toEqual([["ci", "active"], ["deploy", "active"]])
    expect(listed.stdout).not.toContain(key.token)
    expect(listed.stdout).not.toContain(lastLine(plain.stdout))
    const table = await costline(dir, "keys", "list", "--org", "prod")
    expect(table.stdout).toContain("never")
    expect(table.stdout.split("\n")[0]).toMatch(/^id\s+name\s+access\s+scopes\s+status\s+created_at\s+last_used_at\s+expires_at$/)

    expect((await costline(dir, "keys", "revoke", "--org", "prod", "--name", "ci")).code).toBe(0)
    const byId = await costline(dir, "keys", "revoke", "--org", "prod", "--id", deployId!)
    expect(byId.code).toBe(0)
    const after = JSON.parse((await costline(dir, "keys", "list", "--org", "prod", "--json")).stdout)
    expect(after.map((view: { status: string }) => view.status)).toEqual(["revoked", "revoked"])

    const unknown = await costline(dir, "keys", "revoke", "--org", "prod", "--name", "ci")
    expect(unknown.code).toBe(1)
    expect((await costline(dir, "keys", "revoke", "--org", "prod")).code).toBe(1)
    const badExpiry = await costline(dir, "keys", "create", "--org", "prod", "--name", "x", "--expires", "soon")
    expect(badExpiry.code).toBe(1)
    expect(badExpiry.stderr).toContain("--expires 'soon'")
    const pastExpiry = await costline(dir, "keys", "create", "--org", "prod", "--name", "x", "--expires", "2001-01-01")
    expect(pastExpiry.code).toBe(1)
  })

  it("sessions revoke ends every session of a member", async () => {
    const dir = scratchDir()
    await costline(dir, "orgs", "create", "--org", "prod")
    await costline(dir, "users", "add", "--org", "prod", "--email", "kim@prod.example", "--role", "viewer")
    await costline(dir, "sessions", "create", "--org", "prod", "--email", "kim@prod.example")
    await costline(dir, "sessions", "create", "--org", "prod", "--email", "kim@prod.example")
    const revoked = await costline(dir, "sessions", "revoke", "--org", "prod", "--email", "kim@prod.example")
    expect(revoked.code).toBe(0)
    expect(revoked.stdout).toContain("ended 2 sessions of kim@prod.example")
    expect((await costline(dir, "sessions", "revoke", "--org", "prod", "--email", "kim@prod.example")).stdout).toContain("ended 0 sessions")
    expect((await costline(dir, "sessions", "revoke", "--org", "prod", "--email", "nobody@prod.example")).code).toBe(1)
  })

  it("migrate status lists applied and pending migrations without applying any", async () => {
    const dir = scratchDir()
    const fresh = await costline(dir, "migrate", "status", "--database", "sqlite:data/costline.db", "--json")
    expect(fresh.code).toBe(0)
    const before = JSON.parse(fresh.stdout)
    expect(before.applied).toEqual([])
    expect(before.pending).toContain("0001_initial")
    expect(before.database).toMatch(/^sqlite:\/.*data\/costline\.db$/)
    expect((await costline(dir, "migrate", "--database", "sqlite:data/costline.db")).code).toBe(0)
    const after = await costline(dir, "migrate", "status", "--database", "sqlite:data/costline.db")
    expect(after.stdout).toContain("applied  0001_initial")
    expect(after.stdout).toContain("applied  1300_api_key_last_used")
    expect(lastLine(after.stdout)).toBe("up to date")
  })

  it("a command run where there is no database refuses instead of creating one; not-found errors name the database", async () => {
    const dir = scratchDir()
    const refused = await costline(dir, "keys", "list", "--org", "acme")
    expect(refused.code).toBe(1)
    expect(refused.stderr).toMatch(/no database at sqlite:\/.*\.costline\/costline\.db: run costline migrate first/)
    expect(existsSync(join(dir, ".costline", "costline.db"))).toBe(false)
    await costline(dir, "migrate")
    const missing = await costline(dir, "keys", "list", "--org", "acme")
    expect(missing.code).toBe(1)
    expect(missing.stderr.trim()).toMatch(/organization acme not found \(database sqlite:\/.*\.costline\/costline\.db\)$/)
  })

  it("serve --demo prints a key of the database it serves: another database, or a revoked key, gets a new working one", async () => {
    const dir = scratchDir()
    const port = 20_000 + Math.floor(Math.random() * 20_000)
    const keyOf = (output: string) => /admin API key:\s+(clk_\S+)/.exec(output)?.[1]
    const works = async (token: string | undefined) =>
      (await fetch(`http://127.0.0.1:${port}/v2/insights`, {
        headers: { authorization: `Bearer ${token}`, "x-tenant-id": "demo" }
      })).status

    const first = await startServer(dir, "--demo", "--port", String(port))
    const firstKey = keyOf(first.output())
    expect(await works(firstKey)).toBe(200)
    expect(await stop(first.child)).toBe(0)

    const other = await startServer(dir, "--demo", "--port", String(port), "--database", "sqlite:other.db")
    const otherKey = keyOf(other.output())
    expect(otherKey).not.toBe(firstKey)
    expect(await works(otherKey)).toBe(200)
    expect(await stop(other.child)).toBe(0)

    expect((await costline(dir, "keys", "revoke", "--org", "demo", "--name", "npm-start")).code).toBe(0)
    const again = await startServer(dir, "--demo", "--port", String(port))
    const againKey = keyOf(again.output())
    expect(againKey).not.toBe(firstKey)
    expect(await works(againKey)).toBe(200)
    expect(await stop(again.child)).toBe(0)
  })

  it("help and errors are plain text when not on a terminal; a bad option value is one plain line", async () => {
    const dir = scratchDir()
    const help = await costline(dir, "--help")
    expect(help.stdout).toContain("costline 0.1.0")
    expect(help.stdout + help.stderr).not.toMatch(/\u001b\[/)
    // Every command and group is described; nested commands are listed once, usage lines are typeable.
    expect(help.stdout).toMatch(/^\s+- org settings show --org text \[--database text\]\s+print the settings as JSON$/m)
    expect(help.stdout).not.toContain("org org")
    for (const group of ["users", "invitations", "org", "dw-accounts", "usage", "insights", "ingest", "audit", "secrets"]) {
      expect(help.stdout).toMatch(new RegExp(`^\\s+- ${group}\\s{2,}\\S`, "m"))
    }
    const nested = await costline(dir, "org", "settings", "show", "--help")
    expect(nested.stdout).toContain("$ costline org settings show --org text [--database text]")
    const serveHelp = (await costline(dir, "serve", "--help")).stdout
    expect(serveHelp).toContain("$ costline serve [--port integer] [--host text]")
    expect(serveHelp).toMatch(/address to listen on/)
    await costline(dir, "seed")
    const badSet = await costline(dir, "usage", "report", "--org", "demo", "--set", "nope", "--month", "2026-01")
    expect(badSet.code).toBe(2)
    expect(badSet.stderr.trim()).toBe("--set must be a usage group set id (a UUID)")
    const badMonth = await costline(dir, "usage", "report", "--org", "demo", "--set", "7b0c3c0e-0000-4000-8000-000000000000", "--month", "2026-13")
    expect(badMonth.stderr.trim()).toBe("--month must be a month as YYYY-MM")
    // --org is one shared option with the organization id's schema, on every command that takes it.
    for (const command of [["users", "add", "--email", "a@example.com"], ["keys", "list"]]) {
      for (const bad of ["", "x".repeat(129)]) {
        const badOrg = await costline(dir, ...command, "--org", bad)
        expect(badOrg.code, command.join(" ")).toBe(2)
        expect(badOrg.stderr.trim()).toBe("--org must be an organization id (1 to 128 characters)")
      }
    }
  })
})
