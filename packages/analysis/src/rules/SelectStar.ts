/**
 * `select_star`: `SELECT *` or `t.*` over a stored table. Columnar warehouses read only the
 * columns a query names, so a star reads (and bills) every column. Stars inside `EXISTS (...)`
 * read nothing, and stars over a CTE or subquery read only what those select: both are ignored.
 */
import {
  columnsOf,
  cteNamesOf,
  type FromItem,
  fromItemsOf,
  isBaseTable,
  locationOf,
  type Node,
  type SelectColumn,
  selectsOf
} from "../SqlAst.js"
import { finding, LARGE_SCAN_BYTES, type Rule } from "./Rule.js"

export interface StarOverTable {
  readonly column: SelectColumn
  /** The FROM items the star expands to (all of them for `*`, the named one for `t.*`). */
  readonly covered: ReadonlyArray<FromItem>
  /** The stored tables among `covered`, by name. */
  readonly tables: ReadonlyArray<string>
  /** Whether the SELECT reads more than one FROM item, so expanded columns need qualifiers. */
  readonly joined: boolean
}

const coveredBy = (column: SelectColumn, items: ReadonlyArray<FromItem>): ReadonlyArray<FromItem> => {
  const qualifier = column.star?.qualifier?.toLowerCase()
  return qualifier === undefined
    ? items
    : items.filter((item) => (item.alias ?? item.table)?.toLowerCase() === qualifier)
}

/** Every star of the statement that reads at least one stored table, in text order. */
export const starsOverTables = (statement: Node): ReadonlyArray<StarOverTable> => {
  const cteNames = cteNamesOf(statement)
  return selectsOf(statement)
    .filter((visit) => !visit.inExists)
    .flatMap(({ select }) => {
      const items = fromItemsOf(select)
      return columnsOf(select)
        .filter((column) => column.star !== undefined)
        .map((column) => {
          const covered = coveredBy(column, items)
          const tables = covered.filter((item) => isBaseTable(item, cteNames)).map((item) => item.name!)
          return { column, covered, tables, joined: items.length > 1 }
        })
        .filter((star) => star.tables.length > 0)
    })
}

export const selectStar: Rule = {
  insightType: "select_star",
  basis: "sql",
  detect: ({ query, statistics }) => {
    const stars = query.statements.flatMap(starsOverTables)
    if (stars.length === 0) return []
    const tables = [...new Set(stars.flatMap((star) => star.tables))]
    const largeScan = (statistics?.bytes_scanned ?? 0) >= LARGE_SCAN_BYTES
    return [finding("select_star", {
      severity: largeScan ? "medium" : "low",
      title: "SELECT * reads every column",
      description: `The query selects all columns of ${tables.join(", ")}. A columnar warehouse reads, ` +
        "and bills, each column a query names, so a star reads columns the result may never use.",
      recommendation: "List only the columns the consumer needs.",
      evidence: { tables, star_count: stars.length },
      location: locationOf(stars[0]!.column.node)
    })]
  }
}
