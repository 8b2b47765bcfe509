/** Handlers of the SSO group groups: call core's `SsoGroups` and shape the answer. */
import { SsoGroup, SsoGroups } from "@costline/core"
import { Effect } from "effect"
import { CostlineApi } from "../Api.js"
import { Caller } from "../Caller.js"
import { parseId } from "../Ids.js"
import { toPage } from "../Pages.js"
import * as Preconditions from "../Preconditions.js"
import * as Respond from "../Respond.js"
import { V2_PREFIX } from "../Versions.js"
import { toSsoGroupMappingV1, toSsoGroupV2 } from "./Representation.js"
import * as Group from "../Group.js"

const ssoGroupId = parseId(SsoGroup.SsoGroupId, "sso_group")

/** The v2 group, with its ETag also in the header. */
const shown = (entry: SsoGroups.SsoGroupWithRoles) => {
  const group = toSsoGroupV2(entry)
  return Effect.as(Respond.setHeaders({ etag: group.etag }), group)
}

export const SsoGroupsHttpLive = Group.group(CostlineApi, "ssoGroups", (handlers) =>
  Effect.map(SsoGroups.SsoGroups, (groups) =>
    handlers
      .handle("createSsoGroup", ({ payload }) =>
        Effect.gen(function*() {
          const caller = yield* Caller
          const created = yield* groups.create(caller.actor, caller.organizationId, new SsoGroup.CreateSsoGroup(payload))
          yield* Respond.setHeaders({ location: `${V2_PREFIX}/sso-groups/${created.group.id}` })
          return yield* shown(created)
        }))
      .handle("listSsoGroups", ({ urlParams }) =>
        Effect.gen(function*() {
          const caller = yield* Caller
          const page = yield* groups.list(
            caller.organizationId,
            { pageToken: urlParams.page_token, maxResults: urlParams.max_results },
            { size: "query.max_results" }
          )
          return toPage(page, toSsoGroupV2)
        }))
      .handle("getSsoGroup", ({ path }) =>
        Effect.gen(function*() {
          const caller = yield* Caller
          return yield* shown(yield* groups.get(caller.organizationId, yield* ssoGroupId(path.sso_group_id)))
        }))
      .handle("updateSsoGroup", ({ headers, path, payload }) =>
        Effect.gen(function*() {
          const caller = yield* Caller
          const id = yield* ssoGroupId(path.sso_group_id)
          const precondition = yield* Preconditions.optional(headers)
          const updated = yield* groups.update(caller.actor, caller.organizationId, id, payload, precondition)
          return yield* shown(updated)
        }))))

export const SsoGroupsV1HttpLive = Group.group(CostlineApi, "ssoGroupsV1", (handlers) =>
  Effect.map(SsoGroups.SsoGroups, (groups) =>
    handlers
      .handle("createSsoGroupMapping", ({ payload }) =>
        Effect.gen(function*() {
          const caller = yield* Caller
          const input = new SsoGroup.CreateSsoGroup({ name: payload.sso_group_name, roles: payload.roles })
          return toSsoGroupMappingV1(yield* groups.create(caller.actor, caller.organizationId, input))
        }))
      .handle("renameSsoGroupMapping", ({ path, payload }) =>
        Effect.gen(function*() {
          const caller = yield* Caller
          const renamed = yield* groups.renameByName(caller.actor, caller.organizationId, path.sso_group_name, payload.new_sso_group_name)
          return toSsoGroupMappingV1(renamed)
        }))
      .handle("listSsoGroupMappings", ({ urlParams }) =>
        Effect.gen(function*() {
          const caller = yield* Caller
          const page = yield* groups.listOffset(caller.organizationId, urlParams, { size: "query.limit", offset: "query.offset" })
          return {
            sso_groups: page.items.map(toSsoGroupMappingV1),
            remaining_count: page.remaining_count,
            limit: urlParams.limit,
            offset: urlParams.offset
          }
        }))))
