/** Small helpers shared by the usage tests. */
import { Either } from "effect"
import type { ValidationFailed } from "../../src/shared/Errors.js"
import type { UsageRecord } from "../../src/usage/Domain.js"

export const right = <A>(result: Either.Either<A, ValidationFailed>): A => {
  if (Either.isLeft(result)) throw new Error(`expected success, got ${JSON.stringify(result.left.details)}`)
  return result.right
}

/** The `[field, issue]` pairs of a failed validation. */
export const issues = (result: Either.Either<unknown, ValidationFailed>): Array<[string, string]> => {
  if (Either.isRight(result)) throw new Error(`expected issues, got ${JSON.stringify(result.right)}`)
  return result.left.details.map((d) => [d.field, d.issue])
}

/** The messages of a failed validation. */
export const messages = (result: Either.Either<unknown, ValidationFailed>): Array<string> => {
  if (Either.isRight(result)) throw new Error(`expected issues, got ${JSON.stringify(result.right)}`)
  return result.left.details.map((d) => d.message)
}

export const usage = (dimensions: Partial<UsageRecord> = {}, start = "2024-05-10T12:00:00Z", credits = 1): UsageRecord => ({
  start_time: new Date(start),
  credits,
  ...dimensions
})

/** A raw leaf as a client sends it. */
export const rawLeaf = (path: Array<string>, operator: string, value?: unknown, extra: Record<string, unknown> = {}) => ({
  field: { path },
  operator,
  ...(value === undefined ? {} : { value }),
  ...extra
})

export const rawGroup = (filters: Array<unknown>, operator = "and", extra: Record<string, unknown> = {}) => ({
  operator,
  filters,
  ...extra
})
