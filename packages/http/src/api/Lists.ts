/**
 * The two list envelopes: v2 `{items, page_token, row_count}` (keyset pages) and v1
 * `{<name>, remaining_count, limit, offset}` (offset pages).
 */
import { Schema } from "effect"

export const pageV2 = <A, I>(item: Schema.Schema<A, I>) =>
  Schema.Struct({
    items: Schema.Array(item),
    /** Resumes the list after the last item; null on the last page. */
    page_token: Schema.NullOr(Schema.String),
    row_count: Schema.Int
  })

export const offsetPageV1 = <const K extends string, A, I>(name: K, item: Schema.Schema<A, I>) =>
  Schema.Struct({
    ...({ [name]: Schema.Array(item) } as { readonly [P in K]: Schema.Array$<Schema.Schema<A, I>> }),
    remaining_count: Schema.Int,
    limit: Schema.Int,
    offset: Schema.Int
  })
