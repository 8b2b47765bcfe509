/**
 * The list envelopes, in one place. v2 (API-DECISIONS.md): `{ "items", "page_token",
 * "row_count" }`, where `row_count` is the number of items in this response and `page_token` is
 * null on the last page (the audit export: only on an empty one). v1: `{<name>, remaining_count,
 * limit, offset}` (offset pages).
 */
import type { Listing } from "@costline/core"
import { Schema } from "effect"

/** `{ items, page_token }`: a page inside another resource (a team's members and roles). */
export const embeddedPageOf = <A, I, R>(item: Schema.Schema<A, I, R>) =>
  Schema.Struct({
    items: Schema.Array(item),
    /** Resumes the list after the last item; null when nothing follows. */
    page_token: Schema.NullOr(Schema.String)
  })

/** The v2 page of `item`, named `identifier` in the OpenAPI document. */
export const pageOf = <A, I, R>(item: Schema.Schema<A, I, R>, identifier: string) =>
  Schema.Struct({ ...embeddedPageOf(item).fields, row_count: Schema.Int }).annotations({ identifier })

/** A core page inside another resource, each item in its API shape. */
export const toEmbeddedPage = <A, B>(page: Listing.Page<A>, toItem: (item: A) => B) => ({
  items: page.items.map(toItem),
  page_token: page.page_token
})

/** A core page in the v2 envelope, each item in its API shape. */
export const toPage = <A, B>(page: Listing.Page<A>, toItem: (item: A) => B) => ({
  ...toEmbeddedPage(page, toItem),
  row_count: page.items.length
})

/** A list that is always one page (`page_token` null), in the v2 envelope. */
export const onePage = <A>(items: ReadonlyArray<A>) => ({ items, page_token: null, row_count: items.length })

/** A v1 offset page: the items under `name`, how many follow, and the request's window. */
export const offsetPageV1 = <const K extends string, A, I>(name: K, item: Schema.Schema<A, I>) =>
  Schema.Struct({
    ...({ [name]: Schema.Array(item) } as { readonly [P in K]: Schema.Array$<Schema.Schema<A, I>> }),
    remaining_count: Schema.Int,
    limit: Schema.Int,
    offset: Schema.Int
  })
