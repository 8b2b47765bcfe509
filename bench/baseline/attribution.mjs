// @ts-check
/**
 * Usage attribution with nothing on top: each stored filter expression compiled once into a
 * predicate, each record given to the first group (in precedence order) whose filter matches,
 * credits and records summed per group, and each group's budget status. The same rules as
 * costline's (a missing dimension matches no comparison but `is_null`; `not` negates a node),
 * written the plain way, e.g. ILIKE as a case-insensitive RegExp.
 */

/** @typedef {Record<string, any>} UsageRecord */
/** @typedef {(record: UsageRecord) => boolean} Predicate */
/** @typedef {{ id: string, name: string, order: number, budget: number | null, filter_expression: any }} Group */

/** @param {string} pattern SQL ILIKE (`%`, `_`, `\` escapes) @returns {RegExp} */
const likeRegExp = (pattern) => {
  let source = ""
  for (let i = 0; i < pattern.length; i++) {
    const c = /** @type {string} */ (pattern[i])
    if (c === "\\" && i + 1 < pattern.length) source += (/** @type {string} */ (pattern[++i])).replace(/[.*+?^${}()|[\]\\]/g, "\\$&")
    else if (c === "%") source += "[\\s\\S]*"
    else if (c === "_") source += "[\\s\\S]"
    else source += c.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")
  }
  return new RegExp(`^${source}$`, "iu")
}

/** @param {string} operator @param {any} value @returns {(actual: any) => boolean} */
const test = (operator, value) => {
  switch (operator) {
    case "=": return (actual) => actual === value
    case "!=": return (actual) => typeof actual === typeof value && actual !== value
    case ">": return (actual) => typeof actual === "number" && actual > value
    case ">=": return (actual) => typeof actual === "number" && actual >= value
    case "<": return (actual) => typeof actual === "number" && actual < value
    case "<=": return (actual) => typeof actual === "number" && actual <= value
    case "in": {
      const members = new Set(value)
      return (actual) => members.has(actual)
    }
    case "not_in": {
      const members = new Set(value)
      return (actual) => typeof actual === typeof value[0] && !members.has(actual)
    }
    case "contains": return (actual) => typeof actual === "string" && actual.includes(value)
    case "starts_with": return (actual) => typeof actual === "string" && actual.startsWith(value)
    case "ends_with": return (actual) => typeof actual === "string" && actual.endsWith(value)
    case "ilike": {
      const like = likeRegExp(value)
      return (actual) => typeof actual === "string" && like.test(actual)
    }
    case "is_null": return value ? (actual) => actual == null : (actual) => actual != null
    case "array_contains": return (actual) => Array.isArray(actual) && actual.includes(value)
    default: throw new Error(`unknown filter operator ${operator}`)
  }
}

/** @param {ReadonlyArray<string>} path @returns {(record: UsageRecord) => unknown} */
const reader = ([name, tag]) =>
  tag === undefined
    ? (record) => record[/** @type {string} */ (name)]
    : (record) => (record.tags != null && Object.hasOwn(record.tags, tag) ? record.tags[tag] : undefined)

/** A stored filter expression (a group of leaves and groups) as a predicate. @param {any} node @returns {Predicate} */
export const compileFilter = (node) => {
  /** @type {Predicate} */
  let predicate
  if ("filters" in node) {
    /** @type {Array<Predicate>} */
    const parts = node.filters.map(compileFilter)
    predicate = node.operator === "and"
      ? (record) => {
        for (const part of parts) if (!part(record)) return false
        return true
      }
      : (record) => {
        for (const part of parts) if (part(record)) return true
        return false
      }
  } else {
    const read = reader(node.field.path)
    const matches = test(node.operator, node.value)
    predicate = (record) => matches(read(record))
  }
  return node.not ? (record) => !predicate(record) : predicate
}

/** Share of the budget from which a group is at risk. */
const AT_RISK_SHARE = 0.8

/** @param {number} spent @param {number | null} budget */
export const budgetState = (spent, budget) => {
  if (budget === null) return { spent, budget, remaining: null, status: "no_budget" }
  const status = spent > budget ? "over_budget" : spent >= AT_RISK_SHARE * budget && spent > 0 ? "at_risk" : "on_track"
  return { spent, budget, remaining: budget - spent, status }
}

/**
 * A running attribution over `groups`, already in precedence order: `add` records as they are
 * read, then `report` each group's records and budget state, and the unattributed usage.
 * @param {ReadonlyArray<Group>} groups
 */
export const makeAttribution = (groups) => {
  const predicates = groups.map((group) => compileFilter(group.filter_expression))
  // One slot per group, then one for usage no group matched.
  const credits = new Float64Array(groups.length + 1)
  const records = new Float64Array(groups.length + 1)
  return {
    /** @param {UsageRecord} record */
    add: (record) => {
      let slot = 0
      while (slot < predicates.length && !(/** @type {Predicate} */ (predicates[slot]))(record)) slot++
      credits[slot] += record.credits
      records[slot] += 1
    },
    report: () => ({
      groups: groups.map((group, slot) => ({
        usage_group_id: group.id,
        name: group.name,
        order: group.order,
        records: /** @type {number} */ (records[slot]),
        ...budgetState(/** @type {number} */ (credits[slot]), group.budget)
      })),
      unattributed: { credits: /** @type {number} */ (credits[groups.length]), records: /** @type {number} */ (records[groups.length]) }
    })
  }
}
