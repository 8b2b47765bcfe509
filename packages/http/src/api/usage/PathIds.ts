/** The ids a usage path names. As everywhere in the API (`../Ids.ts`), text that is no id names nothing: 404. */
import { Usage } from "@costline/core"
import { Effect } from "effect"
import { parseId } from "../Ids.js"

export const setIdOf = parseId(Usage.UsageGroupSetId, "usage group set")

const groupIdOf = parseId(Usage.UsageGroupId, "usage group")

/** The set, then the group: a malformed set id is reported first, as an unknown one would be. */
export const groupIdsOf = (path: { readonly usage_group_set_id: string; readonly usage_group_id: string }) =>
  Effect.all([setIdOf(path.usage_group_set_id), groupIdOf(path.usage_group_id)])
