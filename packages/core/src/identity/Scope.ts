/**
 * The scope of a role: the part of the organization it applies to. Callers name a scope by type
 * and id; reads show it with the name of what it points at.
 */
import { Context, type Effect, Schema } from "effect"
import type { StoreUnavailable } from "../shared/Errors.js"
import type { OrganizationId } from "../shared/Ids.js"
import { Role, ScopeType } from "./Domain.js"

/**
 * @since 0.1.0
 * @category models
 */
export class Scope extends Schema.Class<Scope>("Scope")({
  type: ScopeType,
  id: Schema.String,
  /** The target's current name; null when it no longer exists. */
  name: Schema.NullOr(Schema.String)
}) {}

const ScopeId = Schema.String.pipe(
  Schema.filter((s) => s.trim().length > 0, { message: () => "must not be empty" }),
  Schema.maxLength(200)
)

/**
 * A scope as a caller names it. The organization scope may leave out its id: it is the tenant.
 * `name` is what reads show; a client that sends a read scope back may keep it, and it is ignored
 * (the name shown is always the target's own).
 * @since 0.1.0
 * @category schemas
 */
export const ScopeInput = Schema.Struct({
  type: ScopeType,
  id: Schema.optional(Schema.NullOr(ScopeId)),
  name: Schema.optional(Schema.NullOr(Schema.String)).annotations({
    description: "Read-only: what reads show. Accepted so a read scope can be sent back, and ignored."
  })
})
/**
 * @since 0.1.0
 * @category models
 */
export type ScopeInput = typeof ScopeInput.Type

/**
 * A role to grant at a scope: the body of a direct or team grant, and each role of an SSO group.
 * @since 0.1.0
 * @category schemas
 */
export const RoleGrant = Schema.Struct({ role: Role, scope: ScopeInput })
/**
 * @since 0.1.0
 * @category models
 */
export type RoleGrant = typeof RoleGrant.Type

/**
 * A scope checked against the tenant: its id is set and names something that exists.
 * @since 0.1.0
 * @category models
 */
export interface ScopeRef {
  readonly type: ScopeType
  readonly id: string
}

/**
 * Scope types whose ids name things costline does not hold; they are accepted as given.
 * @since 0.1.0
 * @category constants
 */
export const EXTERNAL_SCOPE_TYPES = ["dw_organization", "lh_account", "lh_connection", "bi_site"] as const
/**
 * @since 0.1.0
 * @category models
 */
export type ExternalScopeType = typeof EXTERNAL_SCOPE_TYPES[number]

/**
 * Scope types whose targets live in costline's own tables.
 * @since 0.1.0
 * @category models
 */
export type InternalScopeType = Exclude<ScopeType, ExternalScopeType>

/**
 * @since 0.1.0
 * @category utils
 */
export const isExternal = (type: ScopeType): type is ExternalScopeType =>
  (EXTERNAL_SCOPE_TYPES as ReadonlyArray<ScopeType>).includes(type)

/**
 * @since 0.1.0
 * @category utils
 */
export const scopeKey = (ref: { readonly type: ScopeType; readonly id: string }) => `${ref.type}:${ref.id}`

/**
 * Storage port: the names of scope targets that exist in the tenant.
 * @since 0.1.0
 * @category tags
 */
export class ScopeDirectory extends Context.Tag("@costline/core/ScopeDirectory")<
  ScopeDirectory,
  {
    /** Keyed by `scopeKey`; a target that does not exist in the organization is absent. */
    readonly names: (
      organizationId: OrganizationId,
      refs: ReadonlyArray<{ readonly type: InternalScopeType; readonly id: string }>
    ) => Effect.Effect<ReadonlyMap<string, string>, StoreUnavailable>
  }
>() {}
