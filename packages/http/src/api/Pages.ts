/**
 * The v2 list wrapper of API-DECISIONS.md: `{ "items", "page_token", "row_count" }`, where
 * `row_count` is the number of items in this response and `page_token` is null on the last page.
 */
import type { Page } from "@costline/core"
import { Schema } from "effect"

export const pageOf = <A, I, R>(item: Schema.Schema<A, I, R>, identifier: string) =>
  Schema.Struct({
    items: Schema.Array(item),
    page_token: Schema.NullOr(Schema.String),
    row_count: Schema.Int
  }).annotations({ identifier })

/** A core page in the wrapper, each item in its API shape. */
export const toPage = <A, B>(page: Page<A>, toItem: (item: A) => B) => ({
  items: page.items.map(toItem),
  page_token: page.page_token,
  row_count: page.items.length
})
