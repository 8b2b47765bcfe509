/**
 * `POST /insights/actions/query`: insights grouped by dimensions with measures, computed by the
 * store as one `GROUP BY` (no rows are loaded into memory). Not paginated: cut at `limit`.
 */
import { Context, Effect, Layer } from "effect"
import type { StoreUnavailable } from "../shared/Errors.js"
import type { OrganizationId } from "../shared/Ids.js"
import type { InsightQuery, InsightQueryRow } from "./Domain.js"
import { InsightsRepo } from "./Repo.js"

/**
 * @since 0.1.0
 * @category models
 */
export interface InsightQueryResult {
  readonly items: ReadonlyArray<InsightQueryRow>
  /** The number of rows in `items`. */
  readonly row_count: number
}

/**
 * @since 0.1.0
 * @category tags
 */
export class InsightQueries extends Context.Tag("@costline/core/InsightQueries")<
  InsightQueries,
  {
    readonly run: (
      organizationId: OrganizationId,
      query: InsightQuery
    ) => Effect.Effect<InsightQueryResult, StoreUnavailable>
  }
>() {}

/**
 * @since 0.1.0
 * @category constructors
 */
export const make = Effect.map(InsightsRepo, (repo) =>
  InsightQueries.of({
    run: (organizationId, query) =>
      Effect.map(repo.aggregate(organizationId, query), (items) => ({ items, row_count: items.length }))
  }))

/**
 * @since 0.1.0
 * @category layers
 */
export const layer = Layer.effect(InsightQueries, make)
