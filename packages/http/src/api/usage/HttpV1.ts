/** Handlers of the deprecated v1 usage group routes: the same core calls as v2, in v1 shapes. */
import { Errors, Precondition, UsageGroups } from "@costline/core"
import { Effect } from "effect"
import { CostlineApi } from "../Api.js"
import { Caller } from "../Caller.js"
import { groupIdsOf, setIdOf } from "./PathIds.js"
import { toGroupV1, toSetDetailsV1, toSetV1 } from "./Representation.js"
import * as Group from "../Group.js"

export const UsageGroupsV1HttpLive = Group.group(CostlineApi, "usageGroupsV1", (handlers) =>
  Effect.gen(function*() {
    const usageGroups = yield* UsageGroups.UsageGroups

    return handlers
      .handle("createUsageGroupSet", ({ payload }) =>
        Effect.gen(function*() {
          const caller = yield* Caller
          return toSetV1(yield* usageGroups.createSet(caller.actor, caller.organizationId, payload))
        }))
      .handle("getUsageGroupSet", ({ path }) =>
        Effect.gen(function*() {
          const caller = yield* Caller
          const set = yield* usageGroups.getSet(caller.organizationId, yield* setIdOf(path.usage_group_set_id))
          return toSetDetailsV1(set, yield* usageGroups.allGroups(caller.organizationId, set.id))
        }))
      .handle("putUsageGroup", ({ path, payload: { id, ...patch } }) =>
        Effect.gen(function*() {
          if (id !== undefined && id !== path.usage_group_id) {
            return yield* Errors.ValidationFailed.single("body.id", "mismatch", "must equal the usage_group_id of the path")
          }
          const caller = yield* Caller
          const [setId, groupId] = yield* groupIdsOf(path)
          // v1 sends no `If-Match`.
          const group = yield* usageGroups.updateGroup(caller.actor, caller.organizationId, setId, groupId, patch, Precondition.none)
          return toGroupV1(group)
        }))
      .handle("deleteUsageGroup", ({ path }) =>
        Effect.gen(function*() {
          const caller = yield* Caller
          const [setId, groupId] = yield* groupIdsOf(path)
          yield* usageGroups.deleteGroup(caller.actor, caller.organizationId, setId, groupId, Precondition.none)
          return { success: true } as const
        }))
  }))
