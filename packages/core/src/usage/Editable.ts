/**
 * What an edit of a set or group can change, in one place: the values the audit log records, the
 * state the ETag covers, and how a merge patch applies. Pure.
 */
import { type DateTime, Option } from "effect"
import * as Audited from "../audit/internal/Audited.js"
import * as ETag from "../shared/ETag.js"
import { type FilterExpression, type PatchUsageGroup, UsageGroup, type UsageGroupSet } from "./Domain.js"

/**
 * Set names are unique per organization ignoring case (and surrounding blanks, which are trimmed).
 * @since 0.1.0
 * @category utils
 */
export const setNameKey = (name: string): string => name.trim().toLowerCase()

/**
 * @since 0.1.0
 * @category utils
 */
export const setValues = (set: Pick<UsageGroupSet, "name" | "order" | "team_id">) => ({
  name: set.name,
  order: set.order,
  team_id: set.team_id
})

/**
 * @since 0.1.0
 * @category utils
 */
export const groupValues = (group: Pick<UsageGroup, "name" | "budget" | "order" | "filter_expression">) => ({
  name: group.name,
  budget: group.budget,
  order: group.order,
  filter_expression: group.filter_expression
})

/**
 * @since 0.1.0
 * @category utils
 */
export const UsageGroupSetAudit = Audited.resource<UsageGroupSet>("usage_group_sets", "usage_group_sets", setValues)

/**
 * @since 0.1.0
 * @category utils
 */
export const UsageGroupAudit = Audited.resource<UsageGroup>("usage_group_sets", "usage_groups", (group) => ({
  usage_group_set_id: group.usage_group_set_id,
  ...groupValues(group)
}))

/**
 * @since 0.1.0
 * @category utils
 */
export const setEtag = (set: Parameters<typeof setValues>[0]): string => ETag.compute(setValues(set))
/**
 * @since 0.1.0
 * @category utils
 */
export const groupEtag = (group: Parameters<typeof groupValues>[0]): string => ETag.compute(groupValues(group))

/**
 * The group after a merge patch: absent fields keep their value, `budget: null` removes the
 * limit, `filter` (already validated) replaces the expression when given. The ETag and
 * `updated_at` move only when something changed, so a patch that changes nothing is invisible.
 * @since 0.1.0
 * @category utils
 */
export const applyPatch = (
  group: UsageGroup,
  patch: PatchUsageGroup,
  filter: Option.Option<FilterExpression>,
  now: DateTime.Utc
): UsageGroup => {
  const values = {
    name: patch.name === undefined ? group.name : patch.name.trim(),
    budget: patch.budget === undefined ? group.budget : patch.budget,
    order: patch.order ?? group.order,
    filter_expression: Option.getOrElse(filter, () => group.filter_expression)
  }
  const etag = groupEtag(values)
  if (etag === group.etag) return group
  return new UsageGroup({ ...group, ...values, etag, updated_at: now })
}
