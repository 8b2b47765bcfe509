/** The pure part of `PATCH /insights/{id}`: what a merge patch does to an insight. */
import { Either, Option } from "effect"
import { normalizeEmail } from "../identity/Users.js"
import type { InvalidTransition } from "../shared/Errors.js"
import type { Insight, InsightUpdate, UserEditable } from "./Domain.js"
import * as ETag from "./ETag.js"
import * as InsightStatus from "./InsightStatus.js"

/**
 * The user-editable fields after a patch, with the ETag they give the insight.
 * @since 0.1.0
 * @category models
 */
export interface UserEdit extends UserEditable {
  readonly etag: string
}

/**
 * None when the patch changes nothing (the API answers 200 with the unchanged ETag);
 * InvalidTransition when it moves the status outside the table.
 * @since 0.1.0
 * @category utils
 */
export const applyUpdate = (
  current: Insight,
  patch: InsightUpdate
): Either.Either<Option.Option<UserEdit>, InvalidTransition> =>
  InsightStatus.transition(current.status, patch.status ?? current.status).pipe(
    Either.map((status) => {
      // Stored emails are normalised, so `Ann@x.io` and `ann@x.io` are one assignee.
      const assignee = patch.assignee === undefined
        ? current.assignee
        : patch.assignee === null
        ? null
        : normalizeEmail(patch.assignee)
      if (status === current.status && assignee === current.assignee) return Option.none()
      return Option.some({ status, assignee, etag: ETag.forInsight({ ...current, status, assignee }) })
    })
  )
