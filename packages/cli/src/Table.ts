/** Plain-text tables for listings: one header line, columns padded, no colour, no borders. */
export const table = <Row extends Record<string, string>>(rows: ReadonlyArray<Row>, columns: ReadonlyArray<keyof Row & string>) => {
  if (rows.length === 0) return "(none)"
  const widths = columns.map((column) => Math.max(column.length, ...rows.map((row) => row[column]!.length)))
  const line = (cells: ReadonlyArray<string>) => cells.map((cell, i) => cell.padEnd(widths[i]!)).join("  ").trimEnd()
  return [line(columns), ...rows.map((row) => line(columns.map((column) => row[column]!)))].join("\n")
}
