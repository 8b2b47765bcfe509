import { describe, expect, it } from "vitest"
import { costline, lastLine, scratchDir, startServer, stop } from "./support.js"

const TOKEN = /^cl[ks]_[0-9A-Za-z]{36}$/

describe("costline (SQLite)", () => {
  it("seed creates the organization, an admin and prints a working key alone on the last line", async () => {
    const dir = scratchDir()
    const first = await costline(dir, "seed")
    expect(first.code).toBe(0)
    expect(lastLine(first.stdout)).toMatch(TOKEN)
    expect(first.stdout).toContain("created organization demo")
    const again = await costline(dir, "seed")
    expect(again.code).toBe(0)
    expect(again.stdout).toContain("kept organization demo")
    expect(lastLine(again.stdout)).not.toBe(lastLine(first.stdout))
  })

  it("keys create, users add and sessions create follow the contract's defaults and outputs", async () => {
    const dir = scratchDir()
    await costline(dir, "seed", "--org", "acme")
    const key = await costline(dir, "keys", "create", "--org", "acme", "--name", "ci")
    expect(key.code).toBe(0)
    expect(key.stdout).toContain("(admin, scopes *)")
    expect(lastLine(key.stdout)).toMatch(/^clk_/)
    const limited = await costline(
      dir, "keys", "create", "--org", "acme", "--name", "ro", "--access", "read_only", "--scopes", "insights:read,teams:read"
    )
    expect(limited.stdout).toContain("(read_only, scopes insights:read,teams:read)")
    const user = await costline(dir, "users", "add", "--org", "acme", "--email", "Viewer@Acme.example", "--role", "viewer")
    expect(user.code).toBe(0)
    expect(user.stdout).toContain("viewer@acme.example")
    const session = await costline(dir, "sessions", "create", "--org", "acme", "--email", "viewer@acme.example")
    expect(session.code).toBe(0)
    expect(lastLine(session.stdout)).toMatch(/^cls_/)
  })

  it("exits 1 with a one-line reason on failures and 2 on usage errors", async () => {
    const dir = scratchDir()
    await costline(dir, "seed")
    const unknownOrg = await costline(dir, "keys", "create", "--org", "nope", "--name", "x")
    expect(unknownOrg.code).toBe(1)
    expect(unknownOrg.stderr.trim().split("\n")).toHaveLength(1)
    expect(unknownOrg.stderr).toContain("organization nope not found")
    const noUser = await costline(dir, "sessions", "create", "--org", "demo", "--email", "ghost@demo.example")
    expect(noUser.code).toBe(1)
    expect(noUser.stderr).toContain("user ghost@demo.example not found")
    const duplicate = await costline(dir, "users", "add", "--org", "demo", "--email", "admin@demo.example")
    expect(duplicate.code).toBe(1)
    const badScope = await costline(dir, "keys", "create", "--org", "demo", "--name", "x", "--scopes", "everything")
    expect(badScope.code).toBe(1)
    expect(badScope.stderr).toContain("unknown scope 'everything'")
    expect((await costline(dir, "keys", "create", "--org", "demo")).code).toBe(2)
    expect((await costline(dir, "users", "add", "--org", "demo", "--email", "a@b.c", "--role", "root")).code).toBe(2)
    expect((await costline(dir, "seed", "--database", "mysql://x")).code).toBe(1)
  })

  it("migrate prepares a database file that later commands use", async () => {
    const dir = scratchDir()
    const migrated = await costline(dir, "migrate", "--database", "sqlite:data/costline.db")
    expect(migrated.code).toBe(0)
    expect((await costline(dir, "seed", "--database", "sqlite:data/costline.db")).code).toBe(0)
    expect((await costline(dir, "migrate", "--database", "sqlite:data/costline.db")).code).toBe(0)
  })

  it("serve --demo prints a working key and curl line, shares the SQLite file with the CLI, and stops cleanly on SIGTERM", async () => {
    const dir = scratchDir()
    const port = 20_000 + Math.floor(Math.random() * 20_000)
    const server = await startServer(dir, "--demo", "--port", String(port))
    const banner = server.output()
    const token = /admin API key:\s+(clk_\S+)/.exec(banner)?.[1]
    expect(token).toMatch(TOKEN)
    expect(banner).toContain(`-H 'x-tenant-id: demo' http://127.0.0.1:${port}/v2/audit-logs`)
    const headers = { authorization: `Bearer ${token}`, "x-tenant-id": "demo" }
    const audit = await fetch(`http://127.0.0.1:${port}/v2/audit-logs`, { headers })
    expect(audit.status).toBe(200)
    // The first start loaded a generated month: insights computed from it, with their savings.
    expect(banner).toMatch(/\d+ queries over \d+ warehouse-hours, idle share \d+\.\d%, \d+ insights computed/)
    const computed = await fetch(`http://127.0.0.1:${port}/v2/insights?insight_type__in=warehouse_idle&max_results=50`, { headers })
    const idle = await computed.json() as { items: Array<{ resource_id: string; potential_savings: number }> }
    expect(idle.items.map((item) => item.resource_id)).toContain("IDLE_WH")
    expect(idle.items.every((item) => item.potential_savings > 0)).toBe(true)
    // The CLI writes to the same file while the server runs; the server sees the new key at once.
    const key = await costline(dir, "keys", "create", "--org", "demo", "--name", "while-serving")
    expect(key.code).toBe(0)
    const withNewKey = await fetch(`http://127.0.0.1:${port}/v2/audit-logs?resource__in=api_keys`, {
      headers: { ...headers, authorization: `Bearer ${lastLine(key.stdout)}` }
    })
    const body = await withNewKey.json() as { items: Array<{ new_values: { name: string } }> }
    expect(body.items.map((item) => item.new_values.name)).toContain("while-serving")
    expect(await stop(server.child)).toBe(0)

    // A second start prints the same key, which still works.
    const again = await startServer(dir, "--demo", "--port", String(port))
    expect(again.output()).toContain(token)
    // Loaded once: the organization existed, so the month is not ingested again.
    expect(again.output()).not.toContain("generated month")
    expect((await fetch(`http://127.0.0.1:${port}/v2/audit-logs`, { headers })).status).toBe(200)
    expect(await stop(again.child, "SIGINT")).toBe(0)
  })
})
