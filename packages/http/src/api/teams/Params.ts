/**
 * Query parameters of the team details read: each of the two lists (members, roles) is paged on
 * its own. v2: `<list>_max_results` (1..500, default 50) and `<list>_page_token`; v1:
 * `<list>_limit` (1..1000, default 100) and `<list>_offset` (≥ 0, default 0).
 */
import { Listing } from "@costline/core"
import type { Teams } from "@costline/core"
import { Schema } from "effect"
import { integerParam } from "../QueryParams.js"

const pageSize = Schema.optionalWith(integerParam(1, Listing.MAX_PAGE_SIZE), { default: () => Listing.DEFAULT_PAGE_SIZE })
const limit = Schema.optionalWith(integerParam(1, Listing.V1_MAX_LIMIT), { default: () => Listing.V1_DEFAULT_LIMIT })
const offset = Schema.optionalWith(integerParam(0, Number.MAX_SAFE_INTEGER), { default: () => 0 })

export const TeamDetailsParamsV2 = Schema.Struct({
  members_max_results: pageSize,
  members_page_token: Schema.optional(Schema.String),
  roles_max_results: pageSize,
  roles_page_token: Schema.optional(Schema.String)
})

export const TeamDetailsParamsV1 = Schema.Struct({
  members_limit: limit,
  members_offset: offset,
  roles_limit: limit,
  roles_offset: offset
})

export const toDetailsQueryV2 = (params: typeof TeamDetailsParamsV2.Type): Teams.DetailsQuery<Listing.KeysetRequest> => ({
  members: { pageToken: params.members_page_token, maxResults: params.members_max_results },
  roles: { pageToken: params.roles_page_token, maxResults: params.roles_max_results },
  fields: { members: { size: "query.members_max_results" }, roles: { size: "query.roles_max_results" } }
})

export const toDetailsQueryV1 = (params: typeof TeamDetailsParamsV1.Type): Teams.DetailsQuery<Listing.OffsetRequest> => ({
  members: { offset: params.members_offset, limit: params.members_limit },
  roles: { offset: params.roles_offset, limit: params.roles_limit },
  fields: {
    members: { size: "query.members_limit", offset: "query.members_offset" },
    roles: { size: "query.roles_limit", offset: "query.roles_offset" }
  }
})
