/**
 * Calendar months in UTC, the unit of budgets: `YYYY-MM`. Attribution reads a month as the
 * half-open range [first instant of the month, first instant of the next).
 */
import { Schema } from "effect"

/**
 * @since 0.1.0
 * @category schemas
 */
export const Month = Schema.String.pipe(
  Schema.pattern(/^[0-9]{4}-(0[1-9]|1[0-2])$/, { message: () => "must be a month: YYYY-MM, such as 2024-05" }),
  Schema.brand("Month")
)
/**
 * @since 0.1.0
 * @category models
 */
export type Month = typeof Month.Type

/**
 * @since 0.1.0
 * @category models
 */
export interface MonthRange {
  /** Inclusive. */
  readonly from: Date
  /** Exclusive: the first instant of the next month. */
  readonly to: Date
}

/**
 * @since 0.1.0
 * @category utils
 */
export const range = (month: Month): MonthRange => {
  const year = Number(month.slice(0, 4))
  const index = Number(month.slice(5, 7)) - 1
  return { from: new Date(Date.UTC(year, index, 1)), to: new Date(Date.UTC(year, index + 1, 1)) }
}
