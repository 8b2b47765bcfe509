/** Organizations, their users, API keys, user sessions, and the principal a bearer token resolves to. */
import { DateTime, Schema } from "effect"
import * as Audited from "../audit/internal/Audited.js"
import { ApiKeyId, OrganizationId, SessionId, UserId } from "../shared/Ids.js"

/**
 * @since 0.1.0
 * @category schemas
 */
export const Email = Schema.String.pipe(
  Schema.trimmed(),
  Schema.pattern(/^[^\s@]+@[^\s@]+$/, { message: () => "must be an email address" }),
  Schema.maxLength(320)
)

/**
 * @since 0.1.0
 * @category models
 */
export class Organization extends Schema.Class<Organization>("Organization")({
  id: OrganizationId,
  name: Schema.String,
  settings: Schema.Record({ key: Schema.String, value: Schema.Unknown }),
  created_at: Schema.DateTimeUtc
}) {}

/**
 * A settings change is the `organization` event; the log keeps the settings.
 * @since 0.1.0
 * @category utils
 */
export const OrganizationAudit = Audited.event<Pick<Organization, "id" | "settings">>("organization", "organizations", {
  id: (organization) => organization.id,
  values: (organization) => organization.settings
})

/**
 * @since 0.1.0
 * @category schemas
 */
export const Role = Schema.Literal("admin", "editor", "monitor_editor", "viewer", "team_creator")
/**
 * @since 0.1.0
 * @category models
 */
export type Role = typeof Role.Type

/**
 * @since 0.1.0
 * @category schemas
 */
export const ScopeType = Schema.Literal(
  "organization",
  "dw_organization",
  "dw_account",
  "lh_account",
  "lh_connection",
  "bi_site",
  "usage_group"
)
/**
 * @since 0.1.0
 * @category models
 */
export type ScopeType = typeof ScopeType.Type

/**
 * @since 0.1.0
 * @category models
 */
export class User extends Schema.Class<User>("User")({
  id: UserId,
  organization_id: OrganizationId,
  email: Schema.String,
  created_at: Schema.DateTimeUtc
}) {}

/** A member's removal is the `users` event (`remove`): who, and the roles they held. */
type Removal = { readonly user: User; readonly roles: ReadonlyArray<{ readonly role: string }> }
/**
 * @since 0.1.0
 * @category utils
 */
export const UserRemovalAudit = Audited.event<Removal>("users", "users", {
  id: ({ user }) => user.id,
  values: ({ roles, user }) => ({ email: user.email, roles: roles.map((held) => held.role) }),
  operations: { delete: "remove" }
})

/**
 * @since 0.1.0
 * @category schemas
 */
export const Access = Schema.Literal("read_only", "read_write", "admin")
/**
 * @since 0.1.0
 * @category models
 */
export type Access = typeof Access.Type

/**
 * The areas an API key scope names: `<area>:read`, `<area>:write`, or `*`.
 * @since 0.1.0
 * @category schemas
 */
export const Area = Schema.Literal(
  "audit_logs",
  "insights",
  "ticket_links",
  "teams",
  "sso_groups",
  "users",
  "usage_groups",
  "dw_accounts"
)
/**
 * @since 0.1.0
 * @category models
 */
export type Area = typeof Area.Type

/**
 * @since 0.1.0
 * @category schemas
 */
export const ApiKeyScope = Schema.Union(
  Schema.Literal("*"),
  Schema.TemplateLiteral(Area, Schema.Literal(":read", ":write"))
)
/**
 * @since 0.1.0
 * @category models
 */
export type ApiKeyScope = typeof ApiKeyScope.Type

/**
 * @since 0.1.0
 * @category models
 */
export class ApiKey extends Schema.Class<ApiKey>("ApiKey")({
  id: ApiKeyId,
  organization_id: OrganizationId,
  name: Schema.String,
  access: Access,
  scopes: Schema.Array(ApiKeyScope),
  /** First characters of the token, shown in listings so a key can be recognised. */
  prefix: Schema.String,
  created_at: Schema.DateTimeUtc,
  expires_at: Schema.NullOr(Schema.DateTimeUtc),
  revoked_at: Schema.NullOr(Schema.DateTimeUtc),
  /** When the key last authenticated a request, to the minute (see `ApiKeysRepo.touch`); null: never. */
  last_used_at: Schema.NullOr(Schema.DateTimeUtc)
}) {}

/**
 * What the audit log keeps of a key: never its token or hash. Revocation is its deletion.
 * @since 0.1.0
 * @category utils
 */
export const ApiKeyAudit = Audited.resource<ApiKey>("api_keys", "api_keys", (key) => ({
  name: key.name,
  access: key.access,
  scopes: key.scopes,
  prefix: key.prefix,
  expires_at: key.expires_at === null ? null : DateTime.formatIso(key.expires_at)
}))

/**
 * @since 0.1.0
 * @category models
 */
export class Session extends Schema.Class<Session>("Session")({
  id: SessionId,
  organization_id: OrganizationId,
  user_id: UserId,
  created_at: Schema.DateTimeUtc,
  expires_at: Schema.DateTimeUtc,
  revoked_at: Schema.NullOr(Schema.DateTimeUtc)
}) {}

/**
 * A session's start and end are the `session` event's `login` and `logout`, naming the user.
 * @since 0.1.0
 * @category utils
 */
export const SessionAudit = Audited.event<{ readonly id: SessionId; readonly email: string }>("session", "sessions", {
  id: (session) => session.id,
  values: (session) => ({ user: session.email }),
  operations: { create: "login", delete: "logout" }
})

/**
 * An API key as a caller: its access and scopes bound what it may do (and grant).
 * @since 0.1.0
 * @category schemas
 */
export const ApiKeyPrincipal = Schema.TaggedStruct("ApiKey", {
  organizationId: OrganizationId,
  keyId: ApiKeyId,
  name: Schema.String,
  access: Access,
  scopes: Schema.Array(ApiKeyScope)
})
/**
 * @since 0.1.0
 * @category models
 */
export type ApiKeyPrincipal = typeof ApiKeyPrincipal.Type

/**
 * @since 0.1.0
 * @category schemas
 */
export const UserPrincipal = Schema.TaggedStruct("User", {
  organizationId: OrganizationId,
  userId: UserId,
  email: Schema.String,
  sessionId: SessionId,
  /**
   * The roles that decide what the user may do: every role they hold at organization scope,
   * direct, default or team-inherited (see EffectiveRoles). Narrower roles do not count here.
   */
  roles: Schema.Array(Role)
})
/**
 * @since 0.1.0
 * @category models
 */
export type UserPrincipal = typeof UserPrincipal.Type

/**
 * The caller of an operation, resolved from its bearer token.
 * @since 0.1.0
 * @category schemas
 */
export const Principal = Schema.Union(ApiKeyPrincipal, UserPrincipal)
/**
 * @since 0.1.0
 * @category models
 */
export type Principal = typeof Principal.Type
