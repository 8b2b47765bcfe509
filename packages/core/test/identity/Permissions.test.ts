import { describe, expect, it } from "@effect/vitest"
import {
  type Access,
  type ApiKeyPrincipal,
  type ApiKeyScope,
  Area,
  type Principal,
  type Role,
  type UserPrincipal
} from "../../src/identity/Domain.js"
import * as Permissions from "../../src/identity/Permissions.js"
import { ApiKeyId, OrganizationId, SessionId, UserId } from "../../src/shared/Ids.js"

/**
 * The access policy of API-DECISIONS.md as a table: each principal with the exact set of
 * permissions it holds; every other permission must be denied.
 */
const AREAS = Area.literals

const byName = new Map<string, Permissions.Permission>([
  ...AREAS.map((area) => [`${area}:read`, Permissions.read(area)] as const),
  ...AREAS.map((area) => [`${area}:write`, Permissions.write(area)] as const),
  ["teams:create", Permissions.createTeam],
  ["audit_logs:export", Permissions.exportAudit]
])
const ALL = [...byName.keys()]
const READS = AREAS.map((area) => `${area}:read`)
const WRITES = AREAS.map((area) => `${area}:write`)
const EDITOR_WRITES = ["insights:write", "ticket_links:write", "usage_groups:write"]

const organizationId = OrganizationId.make("org-1")

const user = (...roles: Array<Role>): UserPrincipal => ({
  _tag: "User",
  organizationId,
  userId: UserId.make("00000000-0000-4000-8000-000000000001"),
  email: "ann@example.com",
  sessionId: SessionId.make("00000000-0000-4000-8000-000000000002"),
  roles
})

const key = (access: Access, ...scopes: Array<ApiKeyScope>): ApiKeyPrincipal => ({
  _tag: "ApiKey",
  organizationId,
  keyId: ApiKeyId.make("00000000-0000-4000-8000-000000000003"),
  name: "ci",
  access,
  scopes
})

const TABLE: ReadonlyArray<readonly [string, Principal, ReadonlyArray<string>]> = [
  // Users: the union of what their roles allow.
  ["user admin", user("admin"), ALL],
  ["user editor", user("editor"), [...READS, ...EDITOR_WRITES]],
  ["user team_creator", user("team_creator"), [...READS, "teams:create"]],
  ["user monitor_editor", user("monitor_editor"), READS],
  ["user viewer", user("viewer"), READS],
  ["user without roles", user(), []],
  ["user viewer + team_creator", user("viewer", "team_creator"), [...READS, "teams:create"]],
  ["user editor + team_creator", user("editor", "team_creator"), [...READS, ...EDITOR_WRITES, "teams:create"]],
  // API keys, scope `*`: access alone decides.
  ["key read_only *", key("read_only", "*"), READS],
  ["key read_write *", key("read_write", "*"), [...READS, ...WRITES, "teams:create"]],
  ["key admin *", key("admin", "*"), ALL],
  // API keys, area scopes: a write scope implies read; writes need access other than read_only.
  ["key read_only insights:write", key("read_only", "insights:write"), ["insights:read"]],
  ["key read_write insights:read", key("read_write", "insights:read"), ["insights:read"]],
  ["key read_write insights:write", key("read_write", "insights:write"), ["insights:read", "insights:write"]],
  ["key admin insights:read", key("admin", "insights:read"), ["insights:read"]],
  ["key admin insights:write", key("admin", "insights:write"), ["insights:read", "insights:write"]],
  [
    "key read_write insights:read ticket_links:write",
    key("read_write", "insights:read", "ticket_links:write"),
    ["insights:read", "ticket_links:read", "ticket_links:write"]
  ],
  // Team creation is a write of `teams`.
  ["key read_write teams:write", key("read_write", "teams:write"), ["teams:read", "teams:write", "teams:create"]],
  ["key read_only teams:write", key("read_only", "teams:write"), ["teams:read"]],
  // Audit export: the audit_logs scope and access admin.
  ["key admin audit_logs:read", key("admin", "audit_logs:read"), ["audit_logs:read", "audit_logs:export"]],
  [
    "key admin audit_logs:write",
    key("admin", "audit_logs:write"),
    ["audit_logs:read", "audit_logs:write", "audit_logs:export"]
  ],
  ["key read_write audit_logs:read", key("read_write", "audit_logs:read"), ["audit_logs:read"]],
  ["key read_write audit_logs:write", key("read_write", "audit_logs:write"), ["audit_logs:read", "audit_logs:write"]],
  ["key read_only audit_logs:write", key("read_only", "audit_logs:write"), ["audit_logs:read"]],
  ["key admin without scopes", key("admin"), []]
]

describe("Permissions.isAllowed", () => {
  it.each(TABLE)("%s", (_, principal, allowed) => {
    const granted = ALL.filter((name) => Permissions.isAllowed(principal, byName.get(name)!))
    expect(granted.sort()).toStrictEqual([...new Set(allowed)].sort())
  })

  it("covers every role and every access level", () => {
    const principals = TABLE.map(([, principal]) => principal)
    const roles = new Set(principals.flatMap((p) => (p._tag === "User" ? p.roles : [])))
    const access = new Set(principals.flatMap((p) => (p._tag === "ApiKey" ? [p.access] : [])))
    expect([...roles].sort()).toStrictEqual(["admin", "editor", "monitor_editor", "team_creator", "viewer"])
    expect([...access].sort()).toStrictEqual(["admin", "read_only", "read_write"])
  })
})

describe("Permissions.changedBy", () => {
  it("names a user by email and an API key by its name", () => {
    expect(Permissions.changedBy(user("viewer"))).toStrictEqual({ changedBy: "ann@example.com", changedByType: "user" })
    expect(Permissions.changedBy(key("admin", "*"))).toStrictEqual({ changedBy: "api_key:ci", changedByType: "api_key" })
  })
})
