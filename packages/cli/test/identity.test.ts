/** `costline invitations`, `users remove` and `org settings`, run as a user would, audit included. */
import { Actor, AuditLog, Core, Organizations, Users } from "@costline/core"
import type { Ids } from "@costline/core"
import { SqliteStore } from "@costline/store-sqlite"
import { Effect, Layer } from "effect"
import { mkdirSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { costline, lastLine, scratchDir } from "./support.js"

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/

/** Core over the database file the commands use by default in `dir` (same file, same time). */
const inProcess = <A, E>(dir: string, effect: Effect.Effect<A, E, Layer.Layer.Success<typeof Core.layer>>) => {
  mkdirSync(join(dir, ".costline"), { recursive: true })
  const store = SqliteStore.layer({ filename: join(dir, ".costline", "costline.db") })
  return Effect.runPromise(effect.pipe(Effect.provide(Core.layer.pipe(Layer.provide(store)))))
}

/** The organization's audit records as (event or resource)/operation, read straight from the file. */
const auditTrail = (dir: string, org: string) =>
  inProcess(
    dir,
    Effect.flatMap(AuditLog.AuditLog, (audit) =>
      audit.export(org as Ids.OrganizationId, { filters: {}, order: "asc", pageToken: undefined, maxResults: 500 })).pipe(
        Effect.map((page) => page.items.map((record) => `${record.event_type ?? record.resource}/${record.operation}`))
      )
  )

/** A scratch directory whose database holds the `acme` organization and its admin (made in-process: fast). */
const withOrganization = async () => {
  const dir = scratchDir()
  await inProcess(
    dir,
    Effect.gen(function*() {
      const organization = yield* (yield* Organizations.Organizations).create({ id: "acme", name: "Acme" })
      yield* (yield* Users.Users).add(Actor.Actor.system(), organization.id, { email: "admin@acme.example", role: "admin" })
    })
  )
  return dir
}

describe("costline invitations", () => {
  it("create prints the token last (the id before it), list shows it pending, revoke ends it; each is an invitation event", async () => {
    const dir = await withOrganization()
    const created = await costline(dir, "invitations", "create", "--org", "acme", "--email", "New@Acme.example")
    expect(created.code).toBe(0)
    expect(created.stdout).toContain("invited new@acme.example to acme as viewer")
    expect(lastLine(created.stdout)).toMatch(/^cli_[0-9A-Za-z]{36}$/)
    const id = /id ([0-9a-f-]{36})/.exec(created.stdout)![1]!
    expect(id).toMatch(UUID)
    const listed = await costline(dir, "invitations", "list", "--org", "acme")
    expect(listed.stdout.trim().split("\t").slice(0, 3)).toEqual([id, "new@acme.example", "viewer"])
    const asJson = JSON.parse((await costline(dir, "invitations", "list", "--org", "acme", "--json")).stdout)
    expect(asJson).toEqual([{
      id,
      email: "new@acme.example",
      role: "viewer",
      invited_by: "system",
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      expires_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/)
    }])
    expect((await costline(dir, "invitations", "revoke", "--org", "acme", "--id", id)).code).toBe(0)
    const trail = await auditTrail(dir, "acme")
    expect(trail.filter((entry) => entry.startsWith("invitation/"))).toEqual(["invitation/create", "invitation/revoke"])
  })

  it("accept --token makes the invitee a member with the role and prints their session token; a token works once", async () => {
    const dir = await withOrganization()
    const created = JSON.parse((await costline(dir, "invitations", "create", "--org", "acme", "--email", "dev@acme.example", "--role", "editor", "--expires", "2d", "--json")).stdout)
    // Two days from when the command read the clock, a moment before the invitation's creation.
    const lifetime = Date.parse(created.expires_at) - Date.parse(created.created_at)
    expect(lifetime).toBeLessThanOrEqual(2 * 86_400_000)
    expect(lifetime).toBeGreaterThan(2 * 86_400_000 - 60_000)
    const accepted = await costline(dir, "invitations", "accept", "--org", "acme", "--token", created.token, "--email", "Dev@Acme.example")
    expect(accepted.code).toBe(0)
    expect(accepted.stdout).toContain("dev@acme.example joined acme as editor")
    expect(lastLine(accepted.stdout)).toMatch(/^cls_/)
    const roles = await inProcess(dir, Effect.flatMap(Users.Users, (users) => users.findByEmail("acme" as Ids.OrganizationId, "dev@acme.example")))
    expect(roles.email).toBe("dev@acme.example")
    const again = await costline(dir, "invitations", "accept", "--org", "acme", "--token", created.token, "--email", "dev@acme.example")
    expect(again.code).toBe(1)
    expect(again.stderr.trim()).toBe("costline: NotFound: invitation for this token and email not found")
    const trail = await auditTrail(dir, "acme")
    expect(trail.slice(-4)).toEqual(["invitation/create", "invitation/revoke", "user_roles/create", "session/login"])
    const bad = await costline(dir, "invitations", "create", "--org", "acme", "--email", "x@acme.example", "--expires", "yesterday")
    expect(bad.code).toBe(1)
  })

  it("one pending invitation per email; a revoked or unknown one cannot be revoked", async () => {
    const dir = await withOrganization()
    const id = JSON.parse((await costline(dir, "invitations", "create", "--org", "acme", "--email", "new@acme.example", "--json")).stdout).id
    const again = await costline(dir, "invitations", "create", "--org", "acme", "--email", "NEW@acme.example", "--role", "admin")
    expect(again.code).toBe(1)
    expect(again.stderr).toContain("already has a pending invitation")
    await costline(dir, "invitations", "revoke", "--org", "acme", "--id", id)
    const twice = await costline(dir, "invitations", "revoke", "--org", "acme", "--id", id)
    expect(twice.code).toBe(1)
    expect(twice.stderr.trim()).toBe(`costline: NotFound: invitation ${id} not found`)
    expect((await costline(dir, "invitations", "revoke", "--org", "acme", "--id", "nope")).code).toBe(1)
  })

  it("refuses a member's email, a bad email and an unknown role", async () => {
    const dir = await withOrganization()
    const member = await costline(dir, "invitations", "create", "--org", "acme", "--email", "admin@acme.example")
    expect(member.code).toBe(1)
    expect(member.stderr).toContain("already a member")
    expect((await costline(dir, "invitations", "create", "--org", "acme", "--email", "not-an-email")).code).toBe(1)
    expect((await costline(dir, "invitations", "create", "--org", "acme", "--email", "a@b.c", "--role", "root")).code).toBe(2)
  })
})

describe("costline users remove", () => {
  it("removes a member: their sessions stop working and the removal is a users event", async () => {
    const dir = await withOrganization()
    await costline(dir, "users", "add", "--org", "acme", "--email", "leaver@acme.example", "--role", "editor")
    const removed = await costline(dir, "users", "remove", "--org", "acme", "--email", "LEAVER@acme.example")
    expect(removed.code).toBe(0)
    const session = await costline(dir, "sessions", "create", "--org", "acme", "--email", "leaver@acme.example")
    expect(session.code).toBe(1)
    const again = await costline(dir, "users", "remove", "--org", "acme", "--email", "leaver@acme.example")
    expect(again.code).toBe(1)
    expect(again.stderr).toContain("user leaver@acme.example not found")
    expect((await auditTrail(dir, "acme")).slice(-2)).toEqual(["user_roles/delete", "users/remove"])
  })
})

describe("costline org settings", () => {
  it("set merges key=value settings (JSON or text) and prints them; show prints them; each set is an organization event", async () => {
    const dir = await withOrganization()
    const set = await costline(dir, "org", "settings", "set", "--org", "acme", "trial_end_date=2030-01-31", "app_warehouse_size=XS")
    expect(set.code).toBe(0)
    expect(JSON.parse(lastLine(set.stdout))).toEqual({ trial_end_date: "2030-01-31", app_warehouse_size: "XS" })
    const more = await costline(dir, "org", "settings", "set", "--org", "acme", "features={\"beta\":true}", "data_share_provisioned=false")
    expect(JSON.parse(lastLine(more.stdout))).toEqual({
      trial_end_date: "2030-01-31",
      app_warehouse_size: "XS",
      features: { beta: true },
      data_share_provisioned: false
    })
    const shown = await costline(dir, "org", "settings", "show", "--org", "acme")
    expect(JSON.parse(lastLine(shown.stdout))).toEqual(JSON.parse(lastLine(more.stdout)))
    expect((await auditTrail(dir, "acme")).filter((entry) => entry.startsWith("organization/"))).toEqual([
      "organization/update",
      "organization/update"
    ])
  })

  it("refuses assignments that are not key=value, unknown organizations, and no assignment at all", async () => {
    const dir = await withOrganization()
    const bad = await costline(dir, "org", "settings", "set", "--org", "acme", "Trial=1")
    expect(bad.code).toBe(1)
    expect(bad.stderr).toContain("'Trial=1' is not key=value")
    expect((await costline(dir, "org", "settings", "set", "--org", "acme", "novalue")).code).toBe(1)
    expect((await costline(dir, "org", "settings", "show", "--org", "nope")).stderr).toContain("organization nope not found")
    expect((await costline(dir, "org", "settings", "set", "--org", "acme")).code).toBe(2)
  })
})
