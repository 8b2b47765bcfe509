/** SSO group mappings: an identity provider's group, and the roles its members hold here. */
import { Schema } from "effect"
import * as Audited from "../audit/internal/Audited.js"
import { RoleGrant } from "../identity/Scope.js"
import { OrganizationId } from "../shared/Ids.js"

/**
 * @since 0.1.0
 * @category schemas
 */
export const SsoGroupId = Schema.UUID.pipe(Schema.brand("SsoGroupId"))
/**
 * @since 0.1.0
 * @category models
 */
export type SsoGroupId = typeof SsoGroupId.Type

/**
 * As the identity provider spells it: kept verbatim (case included), unique per organization.
 * @since 0.1.0
 * @category schemas
 */
export const SsoGroupName = Schema.String.pipe(
  Schema.filter((s) => s.trim().length > 0, { message: () => "must not be empty" }),
  Schema.maxLength(256)
)

/**
 * @since 0.1.0
 * @category models
 */
export class SsoGroup extends Schema.Class<SsoGroup>("SsoGroup")({
  id: SsoGroupId,
  organization_id: OrganizationId,
  name: Schema.String,
  created_at: Schema.DateTimeUtc,
  updated_at: Schema.DateTimeUtc,
  /** Stored with the mapping; `ssoGroupEtag` of what an update can change. */
  etag: Schema.String
}) {}

/**
 * A mapping is audited under `user_roles` (it grants roles); its roles are `RoleGrantAudit`s.
 * @since 0.1.0
 * @category utils
 */
export const SsoGroupAudit = Audited.resource<SsoGroup>("user_roles", "sso_groups", (group) => ({ name: group.name }))

/**
 * A mapping grants at least one role.
 * @since 0.1.0
 * @category schemas
 */
export const SsoGroupRoles = Schema.Array(RoleGrant).pipe(
  Schema.minItems(1, { message: () => "at least one role is required" })
)

/**
 * @since 0.1.0
 * @category models
 */
export class CreateSsoGroup extends Schema.Class<CreateSsoGroup>("CreateSsoGroup")({
  name: SsoGroupName,
  roles: SsoGroupRoles
}) {}

/**
 * A merge patch of a mapping: it can be renamed.
 * @since 0.1.0
 * @category schemas
 */
export const SsoGroupPatch = Schema.Struct({
  name: Schema.optional(SsoGroupName)
}).annotations({ identifier: "SsoGroupPatch", parseOptions: { onExcessProperty: "error" } })
/**
 * @since 0.1.0
 * @category models
 */
export type SsoGroupPatch = typeof SsoGroupPatch.Type
