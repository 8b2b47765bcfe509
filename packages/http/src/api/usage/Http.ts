/** v2 usage group handlers (the tenant middleware checked the permission): call core, shape answers and headers. */
import { Attribution, BudgetAlerts, UsageDimensions, UsageGroups } from "@costline/core"
import type { Usage } from "@costline/core"
import { Effect } from "effect"
import { AttributionTimeout } from "../../Options.js"
import { CostlineApi } from "../Api.js"
import { Caller } from "../Caller.js"
import { onePage, toPage } from "../Pages.js"
import * as Preconditions from "../Preconditions.js"
import * as Respond from "../Respond.js"
import { V2_PREFIX } from "../Versions.js"
import { groupIdsOf, setIdOf } from "./PathIds.js"
import { toAttributionV2, toBudgetAlertsV2, toGroupV2, toSetV2 } from "./Representation.js"
import * as Group from "../Group.js"

const setPath = (set: Pick<Usage.UsageGroupSet, "id">) => `${V2_PREFIX}/usage-group-sets/${set.id}`
const groupPath = (group: Usage.UsageGroup) => `${V2_PREFIX}/usage-group-sets/${group.usage_group_set_id}/usage-groups/${group.id}`

const setWithEtag = (set: Usage.UsageGroupSet) => Effect.as(Respond.setHeaders({ etag: set.etag }), toSetV2(set))
const groupWithEtag = (group: Usage.UsageGroup) => Effect.as(Respond.setHeaders({ etag: group.etag }), toGroupV2(group))

export const UsageGroupsHttpLive = Group.group(CostlineApi, "usageGroups", (handlers) =>
  Effect.gen(function*() {
    const usageGroups = yield* UsageGroups.UsageGroups
    const attribution = yield* Attribution.Attribution
    const budgetAlerts = yield* BudgetAlerts.BudgetAlerts
    const attributionTimeout = yield* AttributionTimeout

    return handlers
      .handle("createUsageGroupSet", ({ payload }) =>
        Effect.gen(function*() {
          const caller = yield* Caller
          const set = yield* usageGroups.createSet(caller.actor, caller.organizationId, payload)
          yield* Respond.setHeaders({ location: setPath(set) })
          return yield* setWithEtag(set)
        }))
      .handle("getUsageGroupSet", ({ path }) =>
        Effect.gen(function*() {
          const caller = yield* Caller
          return yield* setWithEtag(yield* usageGroups.getSet(caller.organizationId, yield* setIdOf(path.usage_group_set_id)))
        }))
      .handle("listUsageGroups", ({ path, urlParams }) =>
        Effect.gen(function*() {
          const caller = yield* Caller
          const page = yield* usageGroups.listGroups(caller.organizationId, yield* setIdOf(path.usage_group_set_id), {
            pageToken: urlParams.page_token,
            maxResults: urlParams.max_results
          })
          return toPage(page, toGroupV2)
        }))
      .handle("createUsageGroup", ({ path, payload }) =>
        Effect.gen(function*() {
          const caller = yield* Caller
          const setId = yield* setIdOf(path.usage_group_set_id)
          const group = yield* usageGroups.createGroup(caller.actor, caller.organizationId, setId, payload)
          yield* Respond.setHeaders({ location: groupPath(group) })
          return yield* groupWithEtag(group)
        }))
      .handle("getUsageGroup", ({ path }) =>
        Effect.gen(function*() {
          const caller = yield* Caller
          const [setId, groupId] = yield* groupIdsOf(path)
          const group = yield* usageGroups.getGroup(caller.organizationId, setId, groupId)
          return yield* groupWithEtag(group)
        }))
      .handle("updateUsageGroup", ({ headers, path, payload }) =>
        Effect.gen(function*() {
          const caller = yield* Caller
          const [setId, groupId] = yield* groupIdsOf(path)
          const precondition = yield* Preconditions.optional(headers)
          const group = yield* usageGroups.updateGroup(caller.actor, caller.organizationId, setId, groupId, payload, precondition)
          return yield* groupWithEtag(group)
        }))
      .handle("deleteUsageGroup", ({ headers, path }) =>
        Effect.gen(function*() {
          const caller = yield* Caller
          const [setId, groupId] = yield* groupIdsOf(path)
          const precondition = yield* Preconditions.optional(headers)
          yield* usageGroups.deleteGroup(caller.actor, caller.organizationId, setId, groupId, precondition)
        }))
      .handle("getAttribution", ({ path, urlParams }) =>
        Effect.gen(function*() {
          const caller = yield* Caller
          const setId = yield* setIdOf(path.usage_group_set_id)
          const report = yield* attribution.run(caller.organizationId, setId, urlParams.month, { timeout: attributionTimeout })
          return toAttributionV2(report)
        }))
      .handle("raiseBudgetAlerts", ({ path, payload }) =>
        Effect.gen(function*() {
          const caller = yield* Caller
          const setId = yield* setIdOf(path.usage_group_set_id)
          const run = yield* budgetAlerts.raise(caller.actor, caller.organizationId, setId, payload.month, {
            timeout: attributionTimeout
          })
          return toBudgetAlertsV2(run)
        }))
      .handle("listUsageDimensions", ({ urlParams }) =>
        Effect.gen(function*() {
          const items = UsageDimensions.catalogueFor(urlParams.scope)
          return { scope: urlParams.scope, ...onePage(items) }
        }))
  }))
