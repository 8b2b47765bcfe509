/**
 * Attribution of usage to the groups of one set: a record goes to the first group whose filter
 * matches, in precedence order (`order`, then `created_at`, then `id`), else to nobody
 * ("unattributed"). Credits are summed per group and UTC calendar month.
 *
 * Built for large inputs: every filter is compiled once, records are consumed one at a time from
 * any iterable (or pushed into a Tally, e.g. from a Stream), and totals live in flat arrays.
 */
import { type DateTime, Order } from "effect"
import type { FilterExpression, UsageGroupId, UsageRecord } from "./Domain.js"
import { compile } from "./internal/FilterEvaluation.js"

/**
 * What attribution needs of a usage group.
 * @since 0.1.0
 * @category models
 */
export interface AttributableGroup {
  readonly id: UsageGroupId
  readonly order: number
  readonly created_at: DateTime.Utc
  readonly filter_expression: FilterExpression
}

/**
 * @since 0.1.0
 * @category utils
 */
export const byPrecedence: Order.Order<AttributableGroup> = Order.combineAll([
  Order.mapInput(Order.number, (group: AttributableGroup) => group.order),
  Order.mapInput(Order.number, (group: AttributableGroup) => group.created_at.epochMillis),
  Order.mapInput(Order.string, (group: AttributableGroup) => group.id)
])

/**
 * Credits attributed to one group (null: unattributed) in one month (`YYYY-MM`, UTC).
 * @since 0.1.0
 * @category models
 */
export interface MonthlyTotal {
  readonly usage_group_id: UsageGroupId | null
  readonly month: string
  readonly credits: number
  readonly records: number
}

/**
 * The groups in precedence order and a function giving the index of the group a record belongs
 * to, or -1 when none matches.
 */
const precedence = (groups: Iterable<AttributableGroup>) => {
  const ordered = Array.from(groups).sort(byPrecedence)
  const predicates = ordered.map((group) => compile(group.filter_expression))
  const indexOf = (record: UsageRecord): number => {
    for (let i = 0; i < predicates.length; i++) if (predicates[i]!(record)) return i
    return -1
  }
  return { ordered, indexOf }
}

/**
 * The group a record is attributed to, or null; compiles the filters once for many records.
 * @since 0.1.0
 * @category utils
 */
export const matcher = (groups: Iterable<AttributableGroup>): (record: UsageRecord) => UsageGroupId | null => {
  const { indexOf, ordered } = precedence(groups)
  return (record) => ordered[indexOf(record)]?.id ?? null
}

/** Months are keyed as `year * 12 + month` while counting, and formatted once at the end. */
const monthKey = (date: Date) => date.getUTCFullYear() * 12 + date.getUTCMonth()
const formatMonth = (key: number) => {
  const month = ((key % 12) + 12) % 12
  return `${String((key - month) / 12).padStart(4, "0")}-${String(month + 1).padStart(2, "0")}`
}

/**
 * @since 0.1.0
 * @category models
 */
export interface Tally {
  readonly add: (record: UsageRecord) => void
  /** Non-empty totals, by month, then group precedence, unattributed last. */
  readonly totals: () => ReadonlyArray<MonthlyTotal>
}

/**
 * An incremental attribution: add records one by one, read totals whenever.
 * @since 0.1.0
 * @category constructors
 */
export const makeTally = (groups: Iterable<AttributableGroup>): Tally => {
  const { indexOf, ordered } = precedence(groups)
  // One slot per group in precedence order, then one for unattributed usage.
  const unattributed = ordered.length
  const months = new Map<number, { readonly credits: Float64Array; readonly records: Float64Array }>()
  const slotsOf = (key: number) => {
    let slots = months.get(key)
    if (slots === undefined) {
      slots = { credits: new Float64Array(unattributed + 1), records: new Float64Array(unattributed + 1) }
      months.set(key, slots)
    }
    return slots
  }
  return {
    add: (record) => {
      const index = indexOf(record)
      const slot = index < 0 ? unattributed : index
      const slots = slotsOf(monthKey(record.start_time))
      slots.credits[slot]! += record.credits
      slots.records[slot]! += 1
    },
    totals: () =>
      [...months.keys()].sort((a, b) => a - b).flatMap((key) => {
        const { credits, records } = months.get(key)!
        const month = formatMonth(key)
        return Array.from(credits, (sum, slot) => ({
          usage_group_id: slot === unattributed ? null : ordered[slot]!.id,
          month,
          credits: sum,
          records: records[slot]!
        })).filter((total) => total.records > 0)
      })
  }
}

/**
 * Attributes every record of `records` (any iterable, consumed once) and returns the totals.
 * @since 0.1.0
 * @category utils
 */
export const attribute = (
  groups: Iterable<AttributableGroup>,
  records: Iterable<UsageRecord>
): ReadonlyArray<MonthlyTotal> => {
  const tally = makeTally(groups)
  for (const record of records) tally.add(record)
  return tally.totals()
}
