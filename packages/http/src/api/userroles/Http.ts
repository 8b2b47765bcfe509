/** Handlers of the user-role groups: call core's `UserRoles` and shape the answer. */
import { UserRoles } from "@costline/core"
import { Effect } from "effect"
import { CostlineApi } from "../Api.js"
import { Caller } from "../Caller.js"
import * as Respond from "../Respond.js"
import { toPage } from "../Pages.js"
import { toUserRoleV1, toUserRoleV2 } from "../roles/Schemas.js"
import { success } from "../Success.js"
import { V2_PREFIX } from "../Versions.js"
import { filtersV1, filtersV2 } from "./Params.js"
import * as Group from "../Group.js"

const rolesUrl = (email: string) => `${V2_PREFIX}/users/${encodeURIComponent(email)}/roles`

export const UserRolesHttpLive = Group.group(CostlineApi, "userRoles", (handlers) =>
  Effect.map(UserRoles.UserRoles, (userRoles) =>
    handlers
      .handle("listUserRoles", ({ path, urlParams }) =>
        Effect.gen(function*() {
          const caller = yield* Caller
          const page = yield* userRoles.list(
            caller.organizationId,
            path.email,
            filtersV2(urlParams),
            { pageToken: urlParams.page_token, maxResults: urlParams.max_results },
            { size: "query.max_results" }
          )
          return toPage(page, toUserRoleV2)
        }))
      .handle("grantUserRole", ({ path, payload }) =>
        Effect.gen(function*() {
          const caller = yield* Caller
          const role = yield* userRoles.grant(caller.actor, caller.organizationId, path.email, payload)
          // Roles have no URL of their own: they are listed with the member's other roles.
          yield* Respond.setHeaders({ location: rolesUrl(path.email) })
          return toUserRoleV2(role)
        }))
      .handle("revokeUserRole", ({ path }) =>
        Effect.flatMap(Caller, (caller) => userRoles.revoke(caller.actor, caller.organizationId, path.email, path.role_id)))))

export const UserRolesV1HttpLive = Group.group(CostlineApi, "userRolesV1", (handlers) =>
  Effect.map(UserRoles.UserRoles, (userRoles) =>
    handlers
      .handle("listUserRoles", ({ path, urlParams }) =>
        Effect.gen(function*() {
          const caller = yield* Caller
          const page = yield* userRoles.listOffset(
            caller.organizationId,
            path.email,
            filtersV1(urlParams),
            { offset: urlParams.offset, limit: urlParams.limit },
            { size: "query.limit", offset: "query.offset" }
          )
          return {
            roles: page.items.map(toUserRoleV1),
            remaining_count: page.remaining_count,
            limit: urlParams.limit,
            offset: urlParams.offset
          }
        }))
      .handle("revokeUserRole", ({ path }) =>
        Effect.gen(function*() {
          const caller = yield* Caller
          yield* userRoles.revoke(caller.actor, caller.organizationId, path.email, path.user_role_id)
          return success
        }))))
