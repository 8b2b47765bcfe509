/**
 * Evaluation of filter expressions. An expression is compiled once into nested closures, so
 * attributing many records never re-reads the expression.
 *
 * Missing values: a record whose dimension is absent or null matches no comparison except
 * `is_null` — not even `!=` or `not_in`, as in SQL, so that the same filter can later run in a
 * database with the same result. `not: true` negates a leaf or group as a whole, which is how a
 * filter includes the records without a value: `not (warehouse_name = 'ETL')`.
 */
import {
  type FilterGroup,
  type FilterLeaf,
  type FilterNode,
  type FilterOperator,
  type FilterScalar,
  type FilterValue,
  isGroup,
  type UsageRecord
} from "../Domain.js"
import { compileLike } from "./Like.js"

export type RecordPredicate = (record: UsageRecord) => boolean

/** Compiles a validated expression; the predicate never throws, whatever the record holds. */
export const compile = (node: FilterNode): RecordPredicate => {
  const test = isGroup(node) ? compileGroup(node) : compileLeaf(node)
  return node.not ? (record) => !test(record) : test
}

/** One record, one expression; to test many records, compile once. */
export const evaluate = (expression: FilterNode, record: UsageRecord): boolean => compile(expression)(record)

const compileGroup = (node: FilterGroup): RecordPredicate => {
  const parts = node.filters.map(compile)
  // Plain loops: this runs for every record and every group.
  return node.operator === "and"
    ? (record) => {
      for (const part of parts) if (!part(record)) return false
      return true
    }
    : (record) => {
      for (const part of parts) if (part(record)) return true
      return false
    }
}

const compileLeaf = (node: FilterLeaf): RecordPredicate => {
  const read = reader(node.field.path)
  const test = valueTest(node.operator, node.value)
  return (record) => test(read(record))
}

/** Reads a dimension; a tag is read only if the map itself holds it, never its prototype. */
const reader = (path: ReadonlyArray<string>): (record: UsageRecord) => unknown => {
  const [name, tag] = path as [keyof UsageRecord, string | undefined]
  if (tag === undefined) return (record) => record[name]
  return (record) => {
    const tags = record.tags
    return tags != null && Object.hasOwn(tags, tag) ? tags[tag] : undefined
  }
}

// The value's shape follows from the operator: validate checked it, so these casts hold.
const valueTest = (operator: FilterOperator, value: FilterValue): (actual: unknown) => boolean => {
  switch (operator) {
    case "=":
      return (actual) => actual === value
    case "!=":
      return (actual) => typeof actual === typeof value && actual !== value
    case ">":
      return (actual) => typeof actual === "number" && actual > (value as number)
    case ">=":
      return (actual) => typeof actual === "number" && actual >= (value as number)
    case "<":
      return (actual) => typeof actual === "number" && actual < (value as number)
    case "<=":
      return (actual) => typeof actual === "number" && actual <= (value as number)
    case "in": {
      const members = new Set<unknown>(value as ReadonlyArray<FilterScalar>)
      return (actual) => members.has(actual)
    }
    case "not_in": {
      const members = new Set<unknown>(value as ReadonlyArray<FilterScalar>)
      const type = typeof (value as ReadonlyArray<FilterScalar>)[0]
      return (actual) => typeof actual === type && !members.has(actual)
    }
    case "contains":
      return (actual) => typeof actual === "string" && actual.includes(value as string)
    case "starts_with":
      return (actual) => typeof actual === "string" && actual.startsWith(value as string)
    case "ends_with":
      return (actual) => typeof actual === "string" && actual.endsWith(value as string)
    case "ilike": {
      const matches = compileLike(value as string)
      return (actual) => typeof actual === "string" && matches(actual)
    }
    case "is_null":
      return value ? (actual) => actual == null : (actual) => actual != null
    case "array_contains":
      return (actual) => Array.isArray(actual) && actual.includes(value)
  }
}
