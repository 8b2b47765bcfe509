/**
 * Query parameters of a member's role list. v2: `max_results`, `page_token`, `role__in`,
 * `scope_type__in`; v1: `limit` (1..1000, default 100), `offset`, `role`, `scope_type`. The
 * filters take comma-separated values and may repeat.
 */
import { Identity, Listing } from "@costline/core"
import type { EffectiveRoles } from "@costline/core"
import { Schema } from "effect"
import { integerParam, oneOfList } from "../QueryParams.js"

const roles = Schema.optional(oneOfList(Identity.Role))
const scopeTypes = Schema.optional(oneOfList(Identity.ScopeType))

export const UserRolesParamsV2 = Schema.Struct({
  max_results: Schema.optionalWith(integerParam(1, Listing.MAX_PAGE_SIZE), { default: () => Listing.DEFAULT_PAGE_SIZE }),
  page_token: Schema.optional(Schema.String),
  role__in: roles,
  scope_type__in: scopeTypes
})

export const UserRolesParamsV1 = Schema.Struct({
  limit: Schema.optionalWith(integerParam(1, Listing.V1_MAX_LIMIT), { default: () => Listing.V1_DEFAULT_LIMIT }),
  offset: Schema.optionalWith(integerParam(0, Number.MAX_SAFE_INTEGER), { default: () => 0 }),
  role: roles,
  scope_type: scopeTypes
})

export const filtersV2 = (params: typeof UserRolesParamsV2.Type): EffectiveRoles.RoleFilters => ({
  roles: params.role__in,
  scopeTypes: params.scope_type__in
})

export const filtersV1 = (params: typeof UserRolesParamsV1.Type): EffectiveRoles.RoleFilters => ({
  roles: params.role,
  scopeTypes: params.scope_type
})
