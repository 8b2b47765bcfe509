/**
 * Lists ordered by (time, id): v2 pages resume from a signed keyset position, deprecated v1 pages
 * from an offset. Repositories read a `Window` of rows; services turn rows into either page shape.
 */
import { Context, DateTime, Effect, Either, Layer } from "effect"
import { InstallationRepo } from "./Installation.js"
import { InvalidPageToken, type StoreUnavailable, ValidationFailed } from "./Errors.js"
import * as PageToken from "./PageToken.js"
import { MAX_PAGE_SIZE, type Page } from "./Pagination.js"

/** Where the previous page ended: the time and id of its last row (ISO-8601 UTC with milliseconds). */
export interface Keyset {
  readonly at: string
  readonly id: string
}

/** The rows a repository reads: ordered by (time, id), after `after`, skipping `offset`, at most `limit`. */
export interface Window {
  readonly after?: Keyset | undefined
  readonly offset?: number | undefined
  readonly limit: number
}

export const keysetOf = (at: DateTime.Utc, id: string): Keyset => ({ at: DateTime.formatIso(at), id })

/** Fixed-width ISO text orders like time, so keysets compare as text. */
const isAfter = (key: Keyset, position: Keyset) => key.at > position.at || (key.at === position.at && key.id > position.id)

/** A window of a list already in memory and ordered by (time, id): the same rows a store would read. */
export const applyWindow = <A>(items: ReadonlyArray<A>, window: Window, keyOf: (item: A) => Keyset): ReadonlyArray<A> => {
  const after = window.after
  const rest = after === undefined ? items : items.filter((item) => isAfter(keyOf(item), after))
  const offset = window.offset ?? 0
  return rest.slice(offset, offset + window.limit)
}

/** v1 lists: `limit` 1..1000 (default 100) and `offset` ≥ 0. */
export const V1_DEFAULT_LIMIT = 100
export const V1_MAX_LIMIT = 1000

export interface KeysetRequest {
  readonly pageToken: string | undefined
  readonly maxResults: number
}

export interface OffsetRequest {
  readonly offset: number
  readonly limit: number
}

/** A v1 page: the rows, and how many follow it. */
export interface OffsetPage<A> {
  readonly items: ReadonlyArray<A>
  readonly remaining_count: number
}

/** Request fields as the caller names them, so a bad value is reported where it was given. */
export interface RequestFields {
  readonly size: string
  readonly offset?: string
}

const outOfRange = (field: string, message: string) => ValidationFailed.single(field, "out_of_range", message)

export const checkPageSize = (maxResults: number, max: number, field: string) =>
  Number.isInteger(maxResults) && maxResults >= 1 && maxResults <= max
    ? Effect.void
    : Effect.fail(outOfRange(field, `${field.replace(/^query\./, "")} must be an integer from 1 to ${max}`))

/** Reads one v1 page: `limit` + `offset`, and a count for `remaining_count`. */
export const offsetPage = <A, E, R>(
  request: OffsetRequest,
  fields: RequestFields,
  rows: (window: Window) => Effect.Effect<ReadonlyArray<A>, E, R>,
  count: Effect.Effect<number, E, R>
): Effect.Effect<OffsetPage<A>, E | ValidationFailed, R> =>
  Effect.gen(function*() {
    yield* checkPageSize(request.limit, V1_MAX_LIMIT, fields.size)
    const offsetField = fields.offset ?? "query.offset"
    if (!Number.isInteger(request.offset) || request.offset < 0) {
      return yield* outOfRange(offsetField, `${offsetField.replace(/^query\./, "")} must be an integer of at least 0`)
    }
    const items = yield* rows({ offset: request.offset, limit: request.limit })
    const total = yield* count
    return { items, remaining_count: Math.max(0, total - request.offset - items.length) }
  })

/**
 * Signs and opens the keyset positions of v2 lists. `binding` names the list (`sso_groups`,
 * `team_members:<team id>`, ...), so a token resumes only the list that issued it.
 */
export class ListCursors extends Context.Tag("@costline/core/ListCursors")<
  ListCursors,
  {
    /** One v2 page: reads one row more than asked to learn whether a next page exists. */
    readonly keysetPage: <A, E, R>(
      organizationId: string,
      binding: string,
      request: KeysetRequest,
      fields: RequestFields,
      rows: (window: Window) => Effect.Effect<ReadonlyArray<A>, E, R>,
      keyOf: (item: A) => Keyset
    ) => Effect.Effect<Page<A>, E | InvalidPageToken | ValidationFailed | StoreUnavailable, R>
  }
>() {}

const positionOf = (key: Keyset) => JSON.stringify([key.at, key.id])

const keysetFrom = (position: string): Keyset | undefined => {
  try {
    const parsed: unknown = JSON.parse(position)
    return Array.isArray(parsed) && parsed.length === 2 && typeof parsed[0] === "string" && typeof parsed[1] === "string"
      ? { at: parsed[0], id: parsed[1] }
      : undefined
  } catch {
    return undefined
  }
}

export const make = Effect.gen(function*() {
  const installation = yield* InstallationRepo

  const resume = (organizationId: string, binding: string, token: string) =>
    Effect.flatMap(installation.cursorSecret, (secret) => {
      const opened = PageToken.decode(secret, token, { tenant: organizationId, binding })
      if (Either.isLeft(opened)) return Effect.fail(new InvalidPageToken({ message: PageToken.describe(opened.left) }))
      const key = keysetFrom(opened.right.position)
      return key === undefined
        ? Effect.fail(new InvalidPageToken({ message: PageToken.describe("malformed") }))
        : Effect.succeed(key)
    })

  return ListCursors.of({
    keysetPage: (organizationId, binding, request, fields, rows, keyOf) =>
      Effect.gen(function*() {
        yield* checkPageSize(request.maxResults, MAX_PAGE_SIZE, fields.size)
        const after = request.pageToken === undefined
          ? undefined
          : yield* resume(organizationId, binding, request.pageToken)
        const read = yield* rows({ after, limit: request.maxResults + 1 })
        const items = read.slice(0, request.maxResults)
        const last = items.at(-1)
        if (read.length <= request.maxResults || last === undefined) return { items, page_token: null }
        const secret = yield* installation.cursorSecret
        const position = positionOf(keyOf(last))
        return { items, page_token: PageToken.encode(secret, { tenant: organizationId, binding, position }) }
      })
  })
})

export const layer = Layer.effect(ListCursors, make)
