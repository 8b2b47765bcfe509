/**
 * The baseline's attribution must be costline's: the same group for every record, the same
 * totals and budget states, or `usage_attribution`'s ratio compares different work.
 */
import { UsageAttribution, UsageBudget, UsageFilter } from "@costline/core"
import type { Usage } from "@costline/core"
import { DateTime, Either } from "effect"
import { describe, expect, it } from "vitest"
import { budgetState, compileFilter, makeAttribution } from "../baseline/attribution.mjs"
import { usageGroupInputs, usageRecord } from "../lib/UsageData.js"

/** A group as the store hands it over: the filter in its normalised, validated form. */
const group = (input: any, i: number) => ({
  id: `00000000-0000-4000-8000-${String(i).padStart(12, "0")}` as Usage.UsageGroupId,
  name: input.name as string,
  order: input.order as number,
  budget: input.budget as number | null,
  created_at: DateTime.unsafeMake(0),
  filter_expression: Either.getOrThrow(UsageFilter.validate(input.filter_expression, "organization"))
})

/** A record as both scans hand it over: a Date, and no key for a NULL column. */
const scanned = (n: number) => {
  const { query_tag, start_time, ...rest } = usageRecord(n)
  return { ...rest, start_time: new Date(start_time), ...(query_tag === null ? {} : { query_tag }) }
}

describe("baseline usage attribution", () => {
  it("gives the bench's usage to the groups costline gives it to, with the same totals", () => {
    const groups = usageGroupInputs().map(group)
    const records = Array.from({ length: 20_000 }, (_, n) => scanned(n))
    const totals = new Map(UsageAttribution.attribute(groups, records).map((total) => [total.usage_group_id, total]))
    const baseline = makeAttribution(groups)
    for (const record of records) baseline.add(record)
    const report = baseline.report()
    expect(totals.size).toBeGreaterThan(40)
    report.groups.forEach((attributed, i) => {
      const total = totals.get(groups[i]!.id)
      expect(attributed).toEqual({
        usage_group_id: groups[i]!.id,
        name: groups[i]!.name,
        order: groups[i]!.order,
        records: total?.records ?? 0,
        ...UsageBudget.budgetState(total?.credits ?? 0, groups[i]!.budget)
      })
    })
    expect(report.unattributed).toEqual({ credits: totals.get(null)!.credits, records: totals.get(null)!.records })
  })

  it("evaluates every operator, negation and missing value as costline does", () => {
    const leaf = (path: Array<string>, operator: string, value: unknown, not = false) => ({ field: { path }, operator, value, not })
    const expressions = [
      leaf(["warehouse_name"], "=", "WH_01"),
      leaf(["warehouse_name"], "!=", "WH_01"),
      leaf(["bytes_scanned"], ">", 1),
      leaf(["bytes_scanned"], ">=", 1),
      leaf(["execution_time_ms"], "<", 500),
      leaf(["execution_time_ms"], "<=", 500),
      leaf(["user_name"], "in", ["user_01", "user_02"]),
      leaf(["user_name"], "not_in", ["user_01"]),
      leaf(["query_tag"], "contains", "t_1"),
      leaf(["query_tag"], "starts_with", "dbt"),
      leaf(["role_name"], "ends_with", "3"),
      leaf(["role_name"], "ilike", "r%\\_03"),
      leaf(["query_tag"], "is_null", true),
      leaf(["query_tag"], "is_null", false),
      leaf(["accessed_databases"], "array_contains", "DB_01"),
      leaf(["is_serverless"], "=", true),
      leaf(["tags", "team"], "=", "team_01", true),
      { operator: "or", not: true, filters: [leaf(["tags", "missing"], "=", "x"), leaf(["bytes_scanned"], "<", 0.5)] }
    ]
    // The bench's records, most with the dimensions it leaves out, and one without tags.
    const records = [
      ...Array.from({ length: 200 }, (_, n) => ({
        ...scanned(n),
        ...(n % 4 === 0 ? {} : {
          bytes_scanned: n % 3,
          execution_time_ms: (n * 37) % 1000,
          is_serverless: n % 2 === 0,
          accessed_databases: [`DB_0${n % 3}`]
        })
      })),
      { start_time: new Date(0), credits: 0, role_name: "ROLE_03", user_name: "user_01", query_tag: "dbt_13" }
    ]
    for (const [i, input] of expressions.entries()) {
      const only = group({ name: "g", order: 0, budget: null, filter_expression: { operator: "and", filters: [input] } }, i)
      const costline = UsageAttribution.matcher([only])
      const baseline = compileFilter(only.filter_expression)
      const matches = records.map((record) => baseline(record))
      expect(matches.map((matched, r) => [i, r, matched])).toEqual(records.map((record, r) => [i, r, costline(record) !== null]))
      // Each expression both matches and refuses some record, or the comparison proves little.
      expect([i, new Set(matches).size]).toEqual([i, 2])
    }
  })

  it("states budgets as costline does", () => {
    const cases: Array<[number, number | null]> = [[0, null], [5, null], [0, 0], [1, 0], [0, 10], [7.9, 10], [8, 10], [10, 10], [10.5, 10]]
    for (const [spent, budget] of cases) expect(budgetState(spent, budget)).toEqual(UsageBudget.budgetState(spent, budget))
  })
})
