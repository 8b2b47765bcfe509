/**
 * Page tokens of a set's group list: the shared page-token format (shared/PageToken.ts) bound to
 * the set, holding the precedence key (`order`, `created_at`, `id`) of the page's last group.
 */
import { DateTime, Either, Schema } from "effect"
import { InvalidPageToken } from "../shared/Errors.js"
import type { OrganizationId } from "../shared/Ids.js"
import * as PageToken from "../shared/PageToken.js"
import { type UsageGroup, UsageGroupId, type UsageGroupSetId } from "./Domain.js"
import type { GroupPosition } from "./Repo.js"

const bindingOf = (setId: UsageGroupSetId) => `usage_groups:${setId}`

/** `[order, created_at in epoch milliseconds, id]` */
const Position = Schema.parseJson(Schema.Tuple(Schema.NonNegativeInt, Schema.Int, UsageGroupId))
const decodePosition = Schema.decodeUnknownEither(Position)
const encodePosition = Schema.encodeSync(Position)

export const encode = (secret: string, organizationId: OrganizationId, setId: UsageGroupSetId, last: UsageGroup): string =>
  PageToken.encode(secret, {
    tenant: organizationId,
    binding: bindingOf(setId),
    position: encodePosition([last.order, last.created_at.epochMillis, last.id])
  })

const malformed = () => new InvalidPageToken({ message: PageToken.describe("malformed") })

export const decode = (
  secret: string,
  token: string,
  organizationId: OrganizationId,
  setId: UsageGroupSetId
): Either.Either<GroupPosition, InvalidPageToken> =>
  Either.gen(function*() {
    const payload = yield* Either.mapLeft(
      PageToken.decode(secret, token, { tenant: organizationId, binding: bindingOf(setId) }),
      (error) => new InvalidPageToken({ message: PageToken.describe(error) })
    )
    const [order, createdAtMillis, id] = yield* Either.mapLeft(decodePosition(payload.position), malformed)
    const created_at = yield* Either.fromOption(DateTime.make(createdAtMillis), malformed)
    return { order, created_at, id }
  })
