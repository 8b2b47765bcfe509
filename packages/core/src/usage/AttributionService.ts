/**
 * `Attribution.run`: the usage of one month attributed to the groups of a set, with each group's
 * budget status. One streaming pass over the month's usage records: the store hands them over in
 * bounded batches, every filter is compiled once, and only per-group totals are kept, so memory
 * does not grow with the number of records.
 *
 * A month may hold millions of records, so the pass never holds the event loop: records are
 * attributed in time slices (see Slices) with a turn of the loop between them, and a caller may
 * set a deadline, after which the pass is interrupted at its next pause and the run fails with
 * AttributionTimedOut.
 */
import { Context, Duration, Effect, Layer, Schema } from "effect"
import type { NotFound, StoreUnavailable } from "../shared/Errors.js"
import type { OrganizationId } from "../shared/Ids.js"
import { forEachSliced, makeSlicer } from "../shared/Slices.js"
import { makeTally } from "./Attribution.js"
import { type BudgetState, budgetState } from "./Budget.js"
import type { UsageGroup, UsageGroupSet, UsageGroupSetId } from "./Domain.js"
import { type Month, range } from "./Month.js"
import { UsageRecordsRepo } from "./Repo.js"
import { UsageGroups } from "./UsageGroups.js"

/**
 * @since 0.1.0
 * @category models
 */
export interface GroupAttribution extends BudgetState {
  readonly group: UsageGroup
  /** Usage records attributed to the group. */
  readonly records: number
}

/**
 * @since 0.1.0
 * @category models
 */
export interface AttributionReport {
  readonly set: UsageGroupSet
  readonly month: Month
  /** Every group of the set, in precedence order, also those without usage. */
  readonly groups: ReadonlyArray<GroupAttribution>
  /** Usage no group's filter matched. */
  readonly unattributed: { readonly credits: number; readonly records: number }
}

/**
 * The attribution ran past its deadline and was stopped; nothing was kept of it.
 * @since 0.1.0
 * @category errors
 */
export class AttributionTimedOut extends Schema.TaggedError<AttributionTimedOut>()("AttributionTimedOut", {
  timeoutMs: Schema.Number
}) {
  override get message() {
    return `the attribution did not finish within ${Duration.format(Duration.millis(this.timeoutMs))} and was stopped`
  }
}

/**
 * @since 0.1.0
 * @category models
 */
export interface AttributionOptions {
  /** Fail with AttributionTimedOut, and stop the work, after this long. Default: no deadline. */
  readonly timeout?: Duration.DurationInput | undefined
}

/**
 * @since 0.1.0
 * @category tags
 */
export class Attribution extends Context.Tag("@costline/core/Attribution")<
  Attribution,
  {
    readonly run: (
      organizationId: OrganizationId,
      setId: UsageGroupSetId,
      month: Month,
      options?: AttributionOptions
    ) => Effect.Effect<AttributionReport, NotFound | StoreUnavailable | AttributionTimedOut>
  }
>() {}

/** Interrupts `effect` after `timeout`, failing with AttributionTimedOut instead. */
const withDeadline = (timeout: Duration.DurationInput | undefined) =>
<A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E | AttributionTimedOut, R> => {
  if (timeout === undefined) return effect
  const duration = Duration.decode(timeout)
  return Effect.timeoutFail(effect, {
    duration,
    onTimeout: () => new AttributionTimedOut({ timeoutMs: Duration.toMillis(duration) })
  })
}

/**
 * @since 0.1.0
 * @category constructors
 */
export const make = Effect.gen(function*() {
  const usageGroups = yield* UsageGroups
  const records = yield* UsageRecordsRepo

  return Attribution.of({
    run: (organizationId, setId, month, options = {}) =>
      Effect.gen(function*() {
        const set = yield* usageGroups.getSet(organizationId, setId)
        const groups = yield* usageGroups.allGroups(organizationId, setId)
        const tally = makeTally(groups)
        // One slicer for the whole pass: reading a batch spends the same slice as attributing it.
        const slicer = makeSlicer()
        yield* records.scan({ organizationId, ...range(month) }, (batch) => forEachSliced(slicer, batch, tally.add))
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
      }).pipe(withDeadline(options.timeout))
  })
})

/**
 * @since 0.1.0
 * @category layers
 */
export const layer = Layer.effect(Attribution, make)
