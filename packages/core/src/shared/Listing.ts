/**
 * Paging, the one home of its rules. v2 lists page by a signed keyset position (a `KeysetList`
 * says what its tokens are bound to, how its position is written inside them and whether the
 * last page carries a token); deprecated v1 lists page by an offset. Repositories read a
 * `Window` of rows; services turn rows into either page shape. The token format itself is
 * `PageToken.ts`.
 */
import { Context, DateTime, Effect, Either, Layer, Schema } from "effect"
import { InvalidPageToken, type StoreUnavailable, ValidationFailed } from "./Errors.js"
import { InstallationRepo } from "./Installation.js"
import * as PageToken from "./PageToken.js"

/**
 * Page sizes of the v2 lists (`max_results`).
 * @since 0.1.0
 * @category constants
 */
export const DEFAULT_PAGE_SIZE = 50
/**
 * @since 0.1.0
 * @category constants
 */
export const MAX_PAGE_SIZE = 500

/**
 * @since 0.1.0
 * @category models
 */
export interface Page<A> {
  readonly items: ReadonlyArray<A>
  /** Opaque; null when there is nothing after this page (see `KeysetList.tokenOnLastPage`). */
  readonly page_token: string | null
}

/**
 * Where the previous page ended: the time and id of its last row (ISO-8601 UTC with milliseconds).
 * @since 0.1.0
 * @category models
 */
export interface Keyset {
  readonly at: string
  readonly id: string
}

/**
 * The rows a repository reads: ordered by (time, id), after `after`, skipping `offset`, at most `limit`.
 * @since 0.1.0
 * @category models
 */
export interface Window {
  readonly after?: Keyset | undefined
  readonly offset?: number | undefined
  readonly limit: number
}

/**
 * @since 0.1.0
 * @category utils
 */
export const keysetOf = (at: DateTime.Utc, id: string): Keyset => ({ at: DateTime.formatIso(at), id })

/**
 * A (time, id) keyset inside a token: the JSON text `[at, id]`.
 * @since 0.1.0
 * @category schemas
 */
export const KeysetPosition: Schema.Schema<Keyset, string> = Schema.transform(
  Schema.parseJson(Schema.Tuple(Schema.String, Schema.String)),
  Schema.Struct({ at: Schema.String, id: Schema.String }),
  { strict: true, decode: ([at, id]) => ({ at, id }), encode: ({ at, id }) => [at, id] as const }
)

/** Fixed-width ISO text orders like time, so keysets compare as text. */
const isAfter = (key: Keyset, position: Keyset) => key.at > position.at || (key.at === position.at && key.id > position.id)

/**
 * A window of a list already in memory and ordered by (time, id): the same rows a store would read.
 * @since 0.1.0
 * @category utils
 */
export const applyWindow = <A>(items: ReadonlyArray<A>, window: Window, keyOf: (item: A) => Keyset): ReadonlyArray<A> => {
  const after = window.after
  const rest = after === undefined ? items : items.filter((item) => isAfter(keyOf(item), after))
  const offset = window.offset ?? 0
  return rest.slice(offset, offset + window.limit)
}

/**
 * v1 lists: `limit` 1..1000 (default 100) and `offset` ≥ 0.
 * @since 0.1.0
 * @category constants
 */
export const V1_DEFAULT_LIMIT = 100
/**
 * @since 0.1.0
 * @category constants
 */
export const V1_MAX_LIMIT = 1000

/**
 * @since 0.1.0
 * @category models
 */
export interface KeysetRequest {
  readonly pageToken: string | undefined
  readonly maxResults: number
}

/**
 * @since 0.1.0
 * @category models
 */
export interface OffsetRequest {
  readonly offset: number
  readonly limit: number
}

/**
 * A v1 page: the rows, and how many follow it.
 * @since 0.1.0
 * @category models
 */
export interface OffsetPage<A> {
  readonly items: ReadonlyArray<A>
  readonly remaining_count: number
}

/**
 * Request fields as the caller names them, so a bad value is reported where it was given.
 * @since 0.1.0
 * @category models
 */
export interface RequestFields {
  readonly size: string
  readonly offset?: string
}

const outOfRange = (field: string, message: string) => ValidationFailed.single(field, "out_of_range", message)

/**
 * @since 0.1.0
 * @category utils
 */
export const checkPageSize = (maxResults: number, max: number, field: string) =>
  Number.isInteger(maxResults) && maxResults >= 1 && maxResults <= max
    ? Effect.void
    : Effect.fail(outOfRange(field, `${field.replace(/^query\./, "")} must be an integer from 1 to ${max}`))

/**
 * Reads one v1 page: `limit` + `offset`, and a count for `remaining_count`.
 * @since 0.1.0
 * @category utils
 */
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
 * A v2 list as its page tokens see it. `binding` names the list (`sso_groups`,
 * `team_members:<team id>`, an audit sort order, ...), so a token resumes only the list that
 * issued it; `position` writes the resume key of `positionOf(last item)` into the token.
 * @since 0.1.0
 * @category models
 */
export interface KeysetList<A, P> {
  readonly binding: string
  /** Bindings of the same list in another sort order: their tokens are refused as such. */
  readonly otherOrders?: ReadonlyArray<string> | undefined
  readonly position: Schema.Schema<P, string>
  readonly positionOf: (item: A) => P
  /**
   * Off (the default): one row more than asked is read, and the last page's token is null. On
   * (the audit export): exactly the page is read and every non-empty page points past its last
   * item, so a consumer polling with its last token gets what was committed since.
   */
  readonly tokenOnLastPage?: boolean | undefined
}

/**
 * The rows to read for one page: after `after` (none on the first page), at most `limit`.
 * @since 0.1.0
 * @category models
 */
export interface KeysetWindow<P> {
  readonly after: P | undefined
  readonly limit: number
}

/**
 * A list ordered by (time, id).
 * @since 0.1.0
 * @category utils
 */
export const timeIdList = <A>(binding: string, keyOf: (item: A) => Keyset): KeysetList<A, Keyset> => ({
  binding,
  position: KeysetPosition,
  positionOf: keyOf
})

/**
 * The token that resumes `list` after `last`.
 * @since 0.1.0
 * @category utils
 */
export const issue = <A, P>(secret: string, tenant: string, list: KeysetList<A, P>, last: A): string =>
  PageToken.encode(secret, {
    tenant,
    binding: list.binding,
    position: Schema.encodeSync(list.position)(list.positionOf(last))
  })

/**
 * The position a token of `list` resumes after; a token of anything else is InvalidPageToken.
 * @since 0.1.0
 * @category utils
 */
export const resume = <A, P>(
  secret: string,
  token: string,
  tenant: string,
  list: KeysetList<A, P>
): Either.Either<P, InvalidPageToken> =>
  Either.flatMap(
    Either.mapLeft(
      PageToken.decode(secret, token, { tenant, binding: list.binding, otherOrders: list.otherOrders }),
      (error) => new InvalidPageToken({ message: PageToken.describe(error) })
    ),
    ({ position }) =>
      Either.mapLeft(
        Schema.decodeUnknownEither(list.position)(position),
        () => new InvalidPageToken({ message: PageToken.describe("malformed") })
      )
  )

/**
 * Signs and opens the positions of v2 lists with the installation's secret.
 * @since 0.1.0
 * @category tags
 */
export class ListCursors extends Context.Tag("@costline/core/ListCursors")<
  ListCursors,
  {
    /** One v2 page of `list`: checks the size, opens the token, reads the rows, issues the next token. */
    readonly page: <A, P, E, R>(
      organizationId: string,
      list: KeysetList<A, P>,
      request: KeysetRequest,
      fields: RequestFields,
      rows: (window: KeysetWindow<P>) => Effect.Effect<ReadonlyArray<A>, E, R>
    ) => Effect.Effect<Page<A>, E | InvalidPageToken | ValidationFailed | StoreUnavailable, R>
    /** `page` of a list ordered by (time, id) (`timeIdList`). */
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

/**
 * @since 0.1.0
 * @category constructors
 */
export const make = Effect.gen(function*() {
  const installation = yield* InstallationRepo

  const page = <A, P, E, R>(
    organizationId: string,
    list: KeysetList<A, P>,
    request: KeysetRequest,
    fields: RequestFields,
    rows: (window: KeysetWindow<P>) => Effect.Effect<ReadonlyArray<A>, E, R>
  ) =>
    Effect.gen(function*() {
      yield* checkPageSize(request.maxResults, MAX_PAGE_SIZE, fields.size)
      // The secret only when a token is read or issued: a first page that is also the last needs
      // none, so it is never what creates the installation's secret (a write).
      const after = request.pageToken === undefined
        ? undefined
        : yield* resume(yield* installation.cursorSecret, request.pageToken, organizationId, list)
      const lookAhead = list.tokenOnLastPage === true ? 0 : 1
      const read = yield* rows({ after, limit: request.maxResults + lookAhead })
      const items = read.slice(0, request.maxResults)
      const last = items.at(-1)
      const more = list.tokenOnLastPage === true || read.length > request.maxResults
      const page: Page<A> = {
        items,
        page_token: more && last !== undefined ? issue(yield* installation.cursorSecret, organizationId, list, last) : null
      }
      return page
    })

  return ListCursors.of({
    page,
    keysetPage: (organizationId, binding, request, fields, rows, keyOf) =>
      page(organizationId, timeIdList(binding, keyOf), request, fields, rows)
  })
})

/**
 * @since 0.1.0
 * @category layers
 */
export const layer = Layer.effect(ListCursors, make)
