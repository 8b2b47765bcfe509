/** Every analysis rule, in the order their findings are listed. */
import { cartesianJoin } from "./CartesianJoin.js"
import { explodingJoin } from "./ExplodingJoin.js"
import { oversizedWarehouse } from "./OversizedWarehouse.js"
import { poorPartitionPruning } from "./PoorPartitionPruning.js"
import { queuedWarehouse } from "./QueuedWarehouse.js"
import { repeatedQuery } from "./RepeatedQuery.js"
import type { Rule } from "./Rule.js"
import { selectStar } from "./SelectStar.js"
import { queryLocalSpill, queryRemoteSpill } from "./Spill.js"
import { unboundedSort } from "./UnboundedSort.js"
import { unionWithoutAll } from "./UnionWithoutAll.js"

export const RULES: ReadonlyArray<Rule> = [
  cartesianJoin,
  explodingJoin,
  poorPartitionPruning,
  queryRemoteSpill,
  queryLocalSpill,
  unboundedSort,
  unionWithoutAll,
  selectStar,
  oversizedWarehouse,
  queuedWarehouse,
  repeatedQuery
]

export type { Finding, Rule, RuleInput } from "./Rule.js"
