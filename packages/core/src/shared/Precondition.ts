/**
 * The precondition of a change: the one value every update of a versioned aggregate takes.
 * An edge builds it from the request, choosing how the resource treats `If-Match`:
 * - `required` (insights): a missing header is PreconditionRequired (428);
 * - `optional` (teams, SSO groups, DW accounts, usage groups): a missing header is `none`;
 * - `none`: callers that have no conditional requests (v1 routes, the CLI, host code).
 * A malformed header is a ValidationFailed at `header.if-match` in both parsers. Services only
 * `check` it against the aggregate's stored ETag; a `none` change cannot fail it, which its
 * error type says (`Failed<None>` is `never`).
 */
import { Either } from "effect"
import { PreconditionFailed, PreconditionRequired, type ValidationFailed } from "./Errors.js"
import * as ETag from "./ETag.js"

/**
 * `If-Match` was sent: the change applies only to a state it matches.
 * @since 0.1.0
 * @category models
 */
export interface IfMatch {
  readonly _tag: "IfMatch"
  readonly condition: ETag.Condition
}

/**
 * No condition: the change applies to whatever state is current.
 * @since 0.1.0
 * @category models
 */
export interface None {
  readonly _tag: "None"
}

/**
 * @since 0.1.0
 * @category models
 */
export type Precondition = IfMatch | None

/**
 * What checking `P` can fail with: nothing unless it holds an `If-Match`.
 * @since 0.1.0
 * @category models
 */
export type Failed<P extends Precondition> = P extends IfMatch ? PreconditionFailed : never

/**
 * @since 0.1.0
 * @category utils
 */
export const none: None = { _tag: "None" }

/**
 * @since 0.1.0
 * @category utils
 */
export const ifMatch = (condition: ETag.Condition): IfMatch => ({ _tag: "IfMatch", condition })

/**
 * `If-Match: *`, for host code that must name a condition but accepts any current state.
 * @since 0.1.0
 * @category utils
 */
export const any: IfMatch = ifMatch({ _tag: "Any" })

/**
 * The header of a resource that requires it: absent → PreconditionRequired (`what` names the resource).
 * @since 0.1.0
 * @category utils
 */
export const required = (
  header: string | undefined,
  what: string
): Either.Either<IfMatch, PreconditionRequired | ValidationFailed> =>
  header === undefined
    ? Either.left(new PreconditionRequired({ message: `If-Match is required: send the ETag of your last read of ${what}` }))
    : Either.map(ETag.parse("if-match", header), ifMatch)

/**
 * The header of a resource where it is optional: absent → `none`.
 * @since 0.1.0
 * @category utils
 */
export const optional = (header: string | undefined): Either.Either<Precondition, ValidationFailed> =>
  header === undefined ? Either.right(none) : Either.map(ETag.parse("if-match", header), ifMatch)

/**
 * Does the state with ETag `current` satisfy the precondition? `If-Match` compares strongly, so a
 * weak tag never matches; `*` matches any current state.
 * @since 0.1.0
 * @category utils
 */
export const check = <P extends Precondition>(
  precondition: P,
  current: string,
  what: string
): Either.Either<void, Failed<P>> =>
  precondition._tag === "None" || ETag.matches(precondition.condition, current)
    ? Either.void
    : Either.left(
      new PreconditionFailed({ message: `${what} has changed since it was read (If-Match does not match)` }) as Failed<P>
    )
