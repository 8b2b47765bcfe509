/**
 * `exploding_join`: a query with joins that produced far more rows than it read, the mark of a
 * join key that is not unique on either side (many-to-many).
 */
import { fromItemsOf, locationOf, selectsOf } from "../SqlAst.js"
import { finding, type Rule } from "./Rule.js"

/** Ten output rows per input row is beyond what one-to-many fan-out of normal data produces. */
export const EXPLOSION_RATIO = 10

/** Below a million rows even a tenfold fan-out costs little. */
export const MIN_EXPLODED_ROWS = 1_000_000

export const explodingJoin: Rule = {
  insightType: "exploding_join",
  basis: "execution",
  detect: ({ query, statistics }) => {
    const produced = statistics?.rows_produced
    const scanned = statistics?.rows_scanned
    if (produced === undefined || scanned === undefined || scanned === 0) return []
    const ratio = produced / scanned
    if (ratio < EXPLOSION_RATIO || produced < MIN_EXPLODED_ROWS) return []
    const joined = query.statements.flatMap((statement) =>
      selectsOf(statement).flatMap(({ select }) => fromItemsOf(select).slice(1))
    )
    if (joined.length === 0) return []
    const credits = statistics?.credits_used
    return [finding("exploding_join", {
      severity: "high",
      title: "Join multiplies rows",
      description: `The query produced ${produced} rows from ${scanned} rows read (${Math.round(ratio)}x): a join ` +
        "key is probably not unique on either side.",
      recommendation: "Check the join keys for duplicates; de-duplicate or aggregate one side before joining.",
      evidence: { rows_produced: produced, rows_scanned: scanned, ratio: Math.round(ratio * 10) / 10 },
      location: locationOf(joined[0]!.node),
      // Upper bound: if the join produced only the rows it read, the work on the surplus disappears.
      potentialSavings: credits === undefined ? undefined : credits * (1 - scanned / produced)
    })]
  }
}
