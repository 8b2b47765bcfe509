/** Which status moves a user may make on an insight (API-DECISIONS.md "Insights"). */
import { Either } from "effect"
import { InvalidTransition } from "../shared/Errors.js"
import type { InsightStatus } from "./Domain.js"

/**
 * The moves out of each status. Staying put is always allowed and is not listed.
 * @since 0.1.0
 * @category constants
 */
export const NEXT: Readonly<Record<InsightStatus, ReadonlyArray<InsightStatus>>> = {
  open: ["in_progress", "resolved", "dismissed"],
  in_progress: ["open", "resolved", "dismissed"],
  // A closed insight can only be reopened; it must pass through `open` to be worked on again.
  resolved: ["open"],
  dismissed: ["open"]
}

/**
 * @since 0.1.0
 * @category utils
 */
export const isAllowed = (from: InsightStatus, to: InsightStatus): boolean => from === to || NEXT[from].includes(to)

/**
 * The new status, or InvalidTransition when the move is not in the table.
 * @since 0.1.0
 * @category utils
 */
export const transition = (from: InsightStatus, to: InsightStatus): Either.Either<InsightStatus, InvalidTransition> =>
  isAllowed(from, to) ? Either.right(to) : Either.left(new InvalidTransition({ from, to }))
