/**
 * `Attribution.run`: the usage of one month attributed to the groups of a set, with each group's
 * budget status. One streaming pass over the month's usage records: the store hands them over in
 * bounded batches, every filter is compiled once, and only per-group totals are kept, so memory
 * does not grow with the number of records.
 */
import { Context, Effect, Layer } from "effect"
import type { NotFound, StoreUnavailable } from "../shared/Errors.js"
import type { OrganizationId } from "../shared/Ids.js"
import { makeTally } from "./Attribution.js"
import { type BudgetState, budgetState } from "./Budget.js"
import type { UsageGroup, UsageGroupSet, UsageGroupSetId } from "./Domain.js"
import { type Month, range } from "./Month.js"
import { UsageRecordsRepo } from "./Repo.js"
import { UsageGroups } from "./UsageGroups.js"

export interface GroupAttribution extends BudgetState {
  readonly group: UsageGroup
  /** Usage records attributed to the group. */
  readonly records: number
}

export interface AttributionReport {
  readonly set: UsageGroupSet
  readonly month: Month
  /** Every group of the set, in precedence order, also those without usage. */
  readonly groups: ReadonlyArray<GroupAttribution>
  /** Usage no group's filter matched. */
  readonly unattributed: { readonly credits: number; readonly records: number }
}

export class Attribution extends Context.Tag("@costline/core/Attribution")<
  Attribution,
  {
    readonly run: (
      organizationId: OrganizationId,
      setId: UsageGroupSetId,
      month: Month
    ) => Effect.Effect<AttributionReport, NotFound | StoreUnavailable>
  }
>() {}

export const make = Effect.gen(function*() {
  const usageGroups = yield* UsageGroups
  const records = yield* UsageRecordsRepo

  return Attribution.of({
    run: (organizationId, setId, month) =>
      Effect.gen(function*() {
        const set = yield* usageGroups.getSet(organizationId, setId)
        const groups = yield* usageGroups.allGroups(organizationId, setId)
        const tally = makeTally(groups)
        yield* records.scan({ organizationId, ...range(month) }, (batch) =>
          Effect.sync(() => {
            for (const record of batch) tally.add(record)
          }))
        // The scan read one month, so there is at most one total per group (and one unattributed).
        const totals = new Map(tally.totals().map((total) => [total.usage_group_id, total]))
        const unattributed = totals.get(null)
        return {
          set,
          month,
          groups: groups.map((group) => {
            const total = totals.get(group.id)
            return { group, records: total?.records ?? 0, ...budgetState(total?.credits ?? 0, group.budget) }
          }),
          unattributed: { credits: unattributed?.credits ?? 0, records: unattributed?.records ?? 0 }
        }
      })
  })
})

export const layer = Layer.effect(Attribution, make)
