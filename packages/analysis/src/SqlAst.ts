/**
 * Typed views over node-sql-parser's parse trees. Its trees are loosely typed and differ per
 * grammar (a column name is a string in one, `{ expr: { value } }` in another), so every rule reads
 * them through these helpers and never touches the raw shape.
 */
import type { QueryAnalysis } from "@costline/core"

export interface Node {
  readonly [key: string]: unknown
}

export const isNode = (value: unknown): value is Node =>
  typeof value === "object" && value !== null && !Array.isArray(value)

export const isSelect = (value: unknown): value is Node => isNode(value) && value.type === "select"

/** A name as the grammars spell it: a string, `{ value }`, or `{ expr: { value } }`. */
export const nameOf = (value: unknown): string | undefined => {
  if (typeof value === "string") return value
  if (!isNode(value)) return undefined
  if (typeof value.value === "string") return value.value
  return nameOf(value.expr)
}

export const locationOf = (node: Node): QueryAnalysis.SourceLocation | undefined => {
  const start = isNode(node.loc) && isNode(node.loc.start) ? node.loc.start : undefined
  return typeof start?.line === "number" && typeof start.column === "number"
    ? { line: start.line, column: start.column }
    : undefined
}

/** A function's name: a string, or `{ name: [{ value }] }` (schema-qualified names keep the last part). */
const functionNameOf = (node: Node): string | undefined =>
  isNode(node.name) && Array.isArray(node.name.name) ? nameOf(node.name.name.at(-1)) : nameOf(node.name)

const isExistsPredicate = (node: Node): boolean =>
  (node.type === "function" && functionNameOf(node)?.toUpperCase() === "EXISTS") ||
  (node.type === "unary_expr" && typeof node.operator === "string" && node.operator.toUpperCase().includes("EXISTS"))

export interface SelectVisit {
  readonly select: Node
  /** Inside `EXISTS (...)`, where the select list is never read. */
  readonly inExists: boolean
}

/** The clauses of a SELECT in the order they are written, so that a walk follows the text. */
const SELECT_CLAUSES = ["with", "columns", "from", "where", "groupby", "having", "qualify", "orderby", "limit"]

const childKeys = (node: Node): ReadonlyArray<string> =>
  isSelect(node)
    ? [...SELECT_CLAUSES, ...Object.keys(node).filter((key) => !SELECT_CLAUSES.includes(key))]
    : Object.keys(node)

/** Every SELECT of a statement (set-operation branches and subqueries included), in text order. */
export const selectsOf = (statement: Node): ReadonlyArray<SelectVisit> => {
  const found: Array<SelectVisit> = []
  const visit = (value: unknown, inExists: boolean): void => {
    if (Array.isArray(value)) {
      for (const item of value) visit(item, inExists)
      return
    }
    if (!isNode(value)) return
    if (isSelect(value)) found.push({ select: value, inExists })
    const inner = inExists || isExistsPredicate(value)
    for (const key of childKeys(value)) {
      if (key !== "loc" && key !== "_next") visit(value[key], inner)
    }
    // The next branch of a set operation sits beside this one, not inside it.
    if (isSelect(value)) visit(value._next, inExists)
  }
  visit(statement, false)
  return found
}

export interface ColumnRef {
  readonly qualifier: string | undefined
  readonly column: string
}

export const columnRefOf = (value: unknown): ColumnRef | undefined => {
  if (!isNode(value) || value.type !== "column_ref") return undefined
  const column = nameOf(value.column)
  return column === undefined ? undefined : { qualifier: nameOf(value.table) ?? undefined, column }
}

/** Column references of an expression, not looking into subqueries. */
export const columnRefsIn = (value: unknown): ReadonlyArray<ColumnRef> => {
  if (Array.isArray(value)) return value.flatMap(columnRefsIn)
  if (!isNode(value) || isSelect(value) || "ast" in value) return []
  const ref = columnRefOf(value)
  if (ref !== undefined) return [ref]
  return Object.entries(value).flatMap(([key, child]) => (key === "loc" ? [] : columnRefsIn(child)))
}

export interface SelectColumn {
  readonly node: Node
  readonly expr: unknown
  /** `*` or `alias.*`: `qualifier` is undefined for a bare star. */
  readonly star: { readonly qualifier: string | undefined } | undefined
}

export const columnsOf = (select: Node): ReadonlyArray<SelectColumn> =>
  (Array.isArray(select.columns) ? select.columns : []).filter(isNode).map((node) => {
    const ref = columnRefOf(node.expr)
    return { node, expr: node.expr, star: ref?.column === "*" ? { qualifier: ref.qualifier } : undefined }
  })

export type FromKind = "table" | "derived" | "table_function"

export interface FromItem {
  readonly node: Node
  readonly kind: FromKind
  /** The table's name as written, qualified (`db.schema.table`); undefined unless `kind` is table. */
  readonly name: string | undefined
  /** The last part of `name`. */
  readonly table: string | undefined
  readonly alias: string | undefined
  /** The join keyword (`INNER JOIN`, `CROSS JOIN`, ...); undefined for the first item and comma joins. */
  readonly join: string | undefined
  readonly on: unknown
  readonly using: boolean
}

const JOIN_KEYWORD_ALIASES = new Set(["CROSS", "NATURAL"])

const kindOf = (node: Node): FromKind => {
  if (isNode(node.expr)) return isSelect(node.expr.ast) ? "derived" : "table_function"
  return typeof node.table === "string" ? "table" : "table_function"
}

const fromItemOf = (node: Node): FromItem => {
  const kind = kindOf(node)
  const parts = kind === "table"
    ? [node.db, node.schema, node.table].map(nameOf).filter((part) => part !== undefined)
    : []
  return {
    node,
    kind,
    name: parts.length > 0 ? parts.join(".") : undefined,
    table: kind === "table" ? nameOf(node.table) : undefined,
    alias: nameOf(node.as),
    join: typeof node.join === "string" ? node.join.toUpperCase() : undefined,
    on: node.on ?? undefined,
    using: Array.isArray(node.using) && node.using.length > 0
  }
}

/**
 * The FROM items of a SELECT. The Snowflake and Postgres grammars read `t CROSS JOIN u` and
 * `t NATURAL JOIN u` as `t` aliased `CROSS`/`NATURAL` followed by a condition-less inner join;
 * that is undone here so no rule mistakes it for an aliased table.
 */
export const fromItemsOf = (select: Node): ReadonlyArray<FromItem> => {
  const raw = Array.isArray(select.from) ? select.from : isNode(select.from) ? [select.from] : []
  const items = raw.filter(isNode).map(fromItemOf)
  return items.map((item, index) => {
    const next = items[index + 1]
    const previous = items[index - 1]
    const keywordAlias = (candidate: FromItem | undefined) =>
      candidate?.alias !== undefined && JOIN_KEYWORD_ALIASES.has(candidate.alias.toUpperCase())
    if (keywordAlias(item) && next?.join === "INNER JOIN" && next.on === undefined) return { ...item, alias: undefined }
    if (keywordAlias(previous) && item.join === "INNER JOIN" && item.on === undefined) {
      return { ...item, join: `${previous!.alias!.toUpperCase()} JOIN` }
    }
    return item
  })
}

/** Names that FROM items may refer to as tables but that are defined by WITH in the statement. */
export const cteNamesOf = (statement: Node): ReadonlySet<string> =>
  new Set(
    selectsOf(statement).flatMap(({ select }) =>
      (Array.isArray(select.with) ? select.with : []).flatMap((cte) =>
        isNode(cte) ? [nameOf(cte.name)?.toLowerCase()].filter((name) => name !== undefined) : []
      )
    )
  )

/** A FROM item that reads a stored table (not a CTE, subquery or table function). */
export const isBaseTable = (item: FromItem, cteNames: ReadonlySet<string>): boolean =>
  item.kind === "table" && item.name !== undefined &&
  (item.name.includes(".") || !cteNames.has(item.name.toLowerCase()))

/** Stored tables the statement reads, each named once, in order of appearance. */
export const baseTablesOf = (statement: Node): ReadonlyArray<string> => {
  const cteNames = cteNamesOf(statement)
  const names = selectsOf(statement).flatMap(({ select }) =>
    fromItemsOf(select).filter((item) => isBaseTable(item, cteNames)).map((item) => item.name!)
  )
  return [...new Set(names)]
}

export const isDistinct = (select: Node): boolean => {
  const distinct = isNode(select.distinct) ? select.distinct.type : select.distinct
  return typeof distinct === "string" && distinct.toUpperCase() === "DISTINCT"
}

/** The expressions of GROUP BY. */
export const groupByOf = (select: Node): ReadonlyArray<unknown> => {
  const groupBy = isNode(select.groupby) ? select.groupby.columns : select.groupby
  return Array.isArray(groupBy) ? groupBy : []
}

const nonEmpty = (value: unknown): boolean => Array.isArray(value) && value.length > 0

const hasLimitClause = (limit: unknown): boolean => isNode(limit) && nonEmpty(limit.value)

/** The branches of a set operation (`A UNION B UNION ALL C` → A, B, C); a plain SELECT alone. */
export const branchesOf = (select: Node): ReadonlyArray<Node> => {
  const branches: Array<Node> = [select]
  let current: unknown = select._next
  while (isSelect(current)) {
    branches.push(current)
    current = current._next
  }
  return branches
}

/**
 * Whether the query as a whole is sorted and whether it is limited (LIMIT, or Snowflake's TOP on a
 * plain SELECT). The grammars attach a trailing ORDER BY / LIMIT of a set operation to its last
 * branch; BigQuery's to the first, as `_orderby` / `_limit`.
 */
export const outerOrdering = (select: Node): { readonly sorted: boolean; readonly limited: boolean } => {
  const last = branchesOf(select).at(-1)!
  return {
    sorted: nonEmpty(last.orderby) || nonEmpty(select._orderby),
    limited: hasLimitClause(last.limit) || hasLimitClause(select._limit) || (last === select && isNode(select.top))
  }
}

/** The set operator joining a branch to the next one, lower-cased (`union`, `union all`, ...). */
export const setOperatorOf = (select: Node): string | undefined =>
  typeof select.set_op === "string" && isSelect(select._next) ? select.set_op.toLowerCase() : undefined

/** A UNION that removes duplicates (`UNION`, `UNION DISTINCT`). */
export const isDeduplicatingUnion = (operator: string | undefined): boolean =>
  operator === "union" || operator === "union distinct"

const LITERAL_TYPES = new Set([
  "number",
  "string",
  "single_quote_string",
  "double_quote_string",
  "natural_string",
  "bool",
  "boolean",
  "null"
])

/** The value of a literal expression as text (`'a'` → `a`), or undefined for anything else. */
export const literalOf = (value: unknown): string | undefined =>
  isNode(value) && typeof value.type === "string" && LITERAL_TYPES.has(value.type)
    ? (value.type === "null" ? "null" : String(value.value))
    : undefined
