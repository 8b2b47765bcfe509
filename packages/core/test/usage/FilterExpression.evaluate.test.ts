import { describe, expect, it } from "@effect/vitest"
import type { FilterOperator, FilterValue, UsageRecord } from "../../src/usage/Domain.js"
import { and, compile, evaluate, leaf, negate, or } from "../../src/usage/FilterExpression.js"
import { usage } from "./helpers.js"

type Case = [string, FilterOperator, FilterValue, Partial<UsageRecord>, boolean]

/** Runs the cases of a table against one dimension. */
const check = (path: Array<string>) => (...[, operator, value, dims, expected]: Case) => {
  expect(evaluate(and(leaf(path, operator, value)), usage(dims))).toBe(expected)
}

describe("evaluate: strings", () => {
  const cases: Array<Case> = [
    ["= equal", "=", "ETL", { warehouse_name: "ETL" }, true],
    ["= is case-sensitive", "=", "ETL", { warehouse_name: "etl" }, false],
    ["= missing", "=", "ETL", {}, false],
    ["!= different", "!=", "ETL", { warehouse_name: "BI" }, true],
    ["!= equal", "!=", "ETL", { warehouse_name: "ETL" }, false],
    ["!= missing is false, as in SQL", "!=", "ETL", {}, false],
    ["!= null is false, as in SQL", "!=", "ETL", { warehouse_name: null }, false],
    ["in member", "in", ["ETL", "BI"], { warehouse_name: "BI" }, true],
    ["in non-member", "in", ["ETL", "BI"], { warehouse_name: "ML" }, false],
    ["in missing", "in", ["ETL"], { warehouse_name: null }, false],
    ["not_in non-member", "not_in", ["ETL"], { warehouse_name: "BI" }, true],
    ["not_in member", "not_in", ["ETL"], { warehouse_name: "ETL" }, false],
    ["not_in missing is false, as in SQL", "not_in", ["ETL"], {}, false],
    ["contains", "contains", "TL", { warehouse_name: "ETL_WH" }, true],
    ["contains not", "contains", "tl", { warehouse_name: "ETL_WH" }, false],
    ["starts_with", "starts_with", "ETL", { warehouse_name: "ETL_WH" }, true],
    ["starts_with not", "starts_with", "WH", { warehouse_name: "ETL_WH" }, false],
    ["ends_with", "ends_with", "_WH", { warehouse_name: "ETL_WH" }, true],
    ["ends_with not", "ends_with", "ETL", { warehouse_name: "ETL_WH" }, false],
    ["contains missing", "contains", "E", {}, false],
    ["ilike ignores case", "ilike", "etl%", { warehouse_name: "ETL_WH" }, true],
    ["ilike matches the whole text", "ilike", "etl", { warehouse_name: "ETL_WH" }, false],
    ["ilike missing", "ilike", "%", {}, false],
    ["is_null on missing", "is_null", true, {}, true],
    ["is_null on null", "is_null", true, { warehouse_name: null }, true],
    ["is_null on a value", "is_null", true, { warehouse_name: "" }, false],
    ["is not null on a value", "is_null", false, { warehouse_name: "" }, true],
    ["is not null on missing", "is_null", false, {}, false]
  ]
  it.each(cases)("%s", check(["warehouse_name"]))
})

describe("evaluate: numbers", () => {
  const cases: Array<Case> = [
    ["= equal", "=", 5, { execution_time_ms: 5 }, true],
    ["= other", "=", 5, { execution_time_ms: 6 }, false],
    ["!= other", "!=", 5, { execution_time_ms: 6 }, true],
    ["!= missing", "!=", 5, {}, false],
    ["> above", ">", 5, { execution_time_ms: 5.1 }, true],
    ["> at", ">", 5, { execution_time_ms: 5 }, false],
    [">= at", ">=", 5, { execution_time_ms: 5 }, true],
    [">= below", ">=", 5, { execution_time_ms: 4.9 }, false],
    ["< below", "<", 5, { execution_time_ms: 4.9 }, true],
    ["< at", "<", 5, { execution_time_ms: 5 }, false],
    ["<= at", "<=", 5, { execution_time_ms: 5 }, true],
    ["<= above", "<=", 5, { execution_time_ms: 5.1 }, false],
    ["< missing", "<", 5, { execution_time_ms: null }, false],
    ["in member", "in", [1, 5], { execution_time_ms: 5 }, true],
    ["in non-member", "in", [1, 5], { execution_time_ms: 2 }, false],
    ["not_in non-member", "not_in", [1, 5], { execution_time_ms: 2 }, true],
    ["not_in missing", "not_in", [1, 5], {}, false],
    ["is_null", "is_null", true, { execution_time_ms: 0 }, false]
  ]
  it.each(cases)("%s", check(["execution_time_ms"]))
})

describe("evaluate: booleans", () => {
  const cases: Array<Case> = [
    ["= true", "=", true, { is_serverless: true }, true],
    ["= false on true", "=", false, { is_serverless: true }, false],
    ["!= true on false", "!=", true, { is_serverless: false }, true],
    ["!= on missing", "!=", true, {}, false],
    ["is_null on null", "is_null", true, { is_serverless: null }, true]
  ]
  it.each(cases)("%s", check(["is_serverless"]))
})

describe("evaluate: string arrays", () => {
  const cases: Array<Case> = [
    ["array_contains member", "array_contains", "SALES", { accessed_databases: ["RAW", "SALES"] }, true],
    ["array_contains non-member", "array_contains", "SALES", { accessed_databases: ["RAW"] }, false],
    ["array_contains on empty", "array_contains", "SALES", { accessed_databases: [] }, false],
    ["array_contains missing", "array_contains", "SALES", {}, false],
    ["an empty array is not null", "is_null", true, { accessed_databases: [] }, false]
  ]
  it.each(cases)("%s", check(["accessed_databases"]))
})

describe("evaluate: tags", () => {
  const cases: Array<Case> = [
    ["= the tag's value", "=", "data", { tags: { team: "data" } }, true],
    ["= another tag's value", "=", "data", { tags: { owner: "data" } }, false],
    ["is_null without the tag", "is_null", true, { tags: { owner: "x" } }, true],
    ["is_null without tags", "is_null", true, { tags: null }, true],
    ["ilike the tag's value", "ilike", "DA_A", { tags: { team: "data" } }, true]
  ]
  it.each(cases)("%s", check(["tags", "team"]))

  it("never reads a tag from the map's prototype", () => {
    const tagged = usage({ tags: { team: "x" } })
    expect(evaluate(and(leaf(["tags", "constructor"], "is_null", true)), tagged)).toBe(true)
    expect(evaluate(and(leaf(["tags", "toString"], "is_null", false)), tagged)).toBe(false)
  })
})

describe("evaluate: groups and not", () => {
  const etl = leaf(["warehouse_name"], "=", "ETL")
  const analyst = leaf(["role_name"], "=", "ANALYST")

  it.each([
    ["and: both", { warehouse_name: "ETL", role_name: "ANALYST" }, true],
    ["and: one", { warehouse_name: "ETL", role_name: "ADMIN" }, false]
  ])("%s", (_, dims, expected) => {
    expect(evaluate(and(etl, analyst), usage(dims))).toBe(expected)
  })

  it.each([
    ["or: one", { warehouse_name: "BI", role_name: "ANALYST" }, true],
    ["or: none", { warehouse_name: "BI", role_name: "ADMIN" }, false]
  ])("%s", (_, dims, expected) => {
    expect(evaluate(or(etl, analyst), usage(dims))).toBe(expected)
  })

  it("not on a leaf includes records without the value, unlike !=", () => {
    const withoutWarehouse = usage({})
    expect(evaluate(and(negate(etl)), withoutWarehouse)).toBe(true)
    expect(evaluate(and(leaf(["warehouse_name"], "!=", "ETL")), withoutWarehouse)).toBe(false)
  })

  it("not on a group negates the group", () => {
    const record = usage({ warehouse_name: "ETL", role_name: "ADMIN" })
    expect(evaluate(and(etl, analyst), record)).toBe(false)
    expect(evaluate(negate(and(etl, analyst)), record)).toBe(true)
  })

  it("a compiled predicate gives the same answers for many records", () => {
    const predicate = compile(or(etl, analyst))
    const records = [usage({ warehouse_name: "ETL" }), usage({ role_name: "X" }), usage({ role_name: "ANALYST" })]
    expect(records.map(predicate)).toEqual([true, false, true])
  })

  it("never throws on a record whose values have unexpected types", () => {
    const odd = { ...usage(), warehouse_name: 42, accessed_databases: "SALES", tags: { team: 7 } } as unknown as UsageRecord
    const everything = or(
      leaf(["warehouse_name"], "contains", "4"),
      leaf(["warehouse_name"], "ilike", "4%"),
      leaf(["warehouse_name"], "!=", "x"),
      leaf(["warehouse_name"], "not_in", ["x"]),
      leaf(["accessed_databases"], "array_contains", "SALES"),
      leaf(["tags", "team"], "starts_with", "7")
    )
    expect(evaluate(everything, odd)).toBe(false)
  })
})
