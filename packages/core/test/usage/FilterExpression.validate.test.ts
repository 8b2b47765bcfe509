import { describe, expect, it } from "@effect/vitest"
import { Option, Schema } from "effect"
import { CreateUsageGroup, type FilterLeaf } from "../../src/usage/Domain.js"
import { fromJson, fromWriteInput, MAX_DEPTH, MAX_FILTER_TEXT, MAX_LEAVES, serialize, validate } from "../../src/usage/FilterExpression.js"
import { issues, messages, rawGroup, rawLeaf, right } from "./helpers.js"

const warehouseIsEtl = rawLeaf(["warehouse_name"], "=", "ETL")

describe("validate: normalisation", () => {
  it("adds field.field, not and component_type, in a fixed key order", () => {
    const expression = right(validate(rawGroup([warehouseIsEtl]), "organization"))
    expect(expression).toStrictEqual({
      component_type: "Resource Filter",
      operator: "and",
      not: false,
      filters: [{ field: { field: "warehouse_name", path: ["warehouse_name"] }, operator: "=", value: "ETL", not: false }]
    })
    expect(Object.keys(expression)).toEqual(["component_type", "operator", "not", "filters"])
    expect(Object.keys(expression.filters[0]!)).toEqual(["field", "operator", "value", "not"])
  })

  it("keeps an explicit not and component_type", () => {
    const input = rawGroup([{ ...warehouseIsEtl, not: true }], "or", { not: true, component_type: "Resource Filter" })
    const expression = right(validate(input, "organization"))
    expect(expression.not).toBe(true)
    expect(expression.filters[0]!.not).toBe(true)
  })

  it("accepts a response sent back: field.field is ignored, the path decides", () => {
    const echoed = { ...warehouseIsEtl, field: { field: "stale.name", path: ["user_name"] } }
    const expression = right(validate(rawGroup([echoed]), "organization"))
    expect(expression.filters[0]).toMatchObject({ field: { field: "user_name", path: ["user_name"] } })
  })

  it("is_null without a value means true", () => {
    const expression = right(validate(rawGroup([rawLeaf(["query_tag"], "is_null")]), "team"))
    expect(expression.filters[0]).toMatchObject({ operator: "is_null", value: true })
  })

  it("turns -0 into 0, which JSON can carry", () => {
    const expression = right(
      validate(rawGroup([rawLeaf(["bytes_scanned"], ">", -0), rawLeaf(["bytes_scanned"], "in", [-0, 1])]), "team")
    )
    const [above, among] = expression.filters as Array<FilterLeaf>
    expect(Object.is(above!.value, 0)).toBe(true)
    expect(Object.is((among!.value as Array<number>)[0], 0)).toBe(true)
  })

  it("a tag leaf's path names the tag", () => {
    const expression = right(validate(rawGroup([rawLeaf(["tags", "cost center"], "=", "42")]), "team"))
    expect(expression.filters[0]).toMatchObject({ field: { field: "tags.cost center", path: ["tags", "cost center"] } })
  })
})

describe("validate: operators per dimension type", () => {
  const accepted: Array<[string, Array<string>, string, unknown]> = [
    ["string =", ["warehouse_name"], "=", "ETL"],
    ["string !=", ["warehouse_name"], "!=", "ETL"],
    ["string in", ["warehouse_name"], "in", ["ETL", "BI"]],
    ["string not_in", ["warehouse_name"], "not_in", ["ETL"]],
    ["string contains", ["query_tag"], "contains", "dbt"],
    ["string starts_with", ["query_tag"], "starts_with", "dbt"],
    ["string ends_with", ["query_tag"], "ends_with", "dbt"],
    ["string ilike", ["user_name"], "ilike", "svc\\_%"],
    ["string is_null true", ["user_name"], "is_null", true],
    ["string is_null false", ["user_name"], "is_null", false],
    ["string = empty", ["query_tag"], "=", ""],
    ["number =", ["execution_time_ms"], "=", 5],
    ["number !=", ["execution_time_ms"], "!=", 5],
    ["number >", ["execution_time_ms"], ">", 1.5],
    ["number >=", ["execution_time_ms"], ">=", 0],
    ["number <", ["execution_time_ms"], "<", -3],
    ["number <=", ["execution_time_ms"], "<=", 1e9],
    ["number in", ["bytes_scanned"], "in", [1, 2]],
    ["number not_in", ["bytes_scanned"], "not_in", [3]],
    ["number is_null", ["bytes_scanned"], "is_null", true],
    ["boolean =", ["is_serverless"], "=", true],
    ["boolean !=", ["is_serverless"], "!=", false],
    ["boolean is_null", ["is_serverless"], "is_null", false],
    ["string[] array_contains", ["accessed_databases"], "array_contains", "SALES"],
    ["string[] is_null", ["accessed_databases"], "is_null", true],
    ["tag =", ["tags", "team"], "=", "data"],
    ["tag ilike", ["tags", "team"], "ilike", "DATA%"],
    ["tag is_null", ["tags", "team"], "is_null", true]
  ]
  it.each(accepted)("accepts %s", (_, path, operator, value) => {
    const expression = right(validate(rawGroup([rawLeaf(path, operator, value)]), "organization"))
    expect(expression.filters[0]).toMatchObject({ field: { path }, operator, value })
  })

  const notAllowed: Array<[string, Array<string>, string, unknown]> = [
    ["> on a string", ["warehouse_name"], ">", "A"],
    ["contains on a number", ["execution_time_ms"], "contains", "1"],
    ["in on a boolean", ["is_serverless"], "in", [true]],
    ["= on a string[]", ["accessed_databases"], "=", "SALES"],
    ["array_contains on a string", ["warehouse_name"], "array_contains", "ETL"],
    ["< on a tag", ["tags", "team"], "<", "m"]
  ]
  it.each(notAllowed)("rejects %s at the operator", (_, path, operator, value) => {
    const result = validate(rawGroup([rawLeaf(path, operator, value)]), "organization")
    expect(issues(result)).toEqual([["filter_expression.filters[0].operator", "not_allowed"]])
  })

  it("names the allowed operators", () => {
    const result = validate(rawGroup([rawLeaf(["is_serverless"], ">", true)]), "organization")
    expect(messages(result)).toEqual(["'>' does not apply to boolean dimension 'is_serverless'; use one of: =, !=, is_null"])
  })

  it("rejects an operator that does not exist", () => {
    const result = validate(rawGroup([rawLeaf(["warehouse_name"], "like", "A")]), "organization")
    expect(issues(result)).toEqual([["filter_expression.filters[0].operator", "invalid"]])
  })
})

describe("validate: values", () => {
  const wrong: Array<[string, Array<string>, string, unknown, Array<[string, string]>]> = [
    ["a number for a string", ["warehouse_name"], "=", 5, [["value", "invalid"]]],
    ["a string for a number", ["execution_time_ms"], ">", "5", [["value", "invalid"]]],
    ["NaN", ["execution_time_ms"], "=", Number.NaN, [["value", "invalid"]]],
    ["Infinity", ["execution_time_ms"], "<", Number.POSITIVE_INFINITY, [["value", "invalid"]]],
    ["a string for a boolean", ["is_serverless"], "=", "true", [["value", "invalid"]]],
    ["null", ["warehouse_name"], "=", null, [["value", "invalid"]]],
    ["an empty list", ["warehouse_name"], "in", [], [["value", "invalid"]]],
    ["a scalar for in", ["warehouse_name"], "not_in", "ETL", [["value", "invalid"]]],
    ["bad list elements", ["bytes_scanned"], "in", [1, "2", 3, null], [["value[1]", "invalid"], ["value[3]", "invalid"]]],
    ["an empty substring", ["query_tag"], "contains", "", [["value", "invalid"]]],
    ["a number for starts_with", ["query_tag"], "starts_with", 1, [["value", "invalid"]]],
    ["an empty pattern", ["user_name"], "ilike", "", [["value", "invalid"]]],
    ["a dangling escape", ["user_name"], "ilike", "svc\\", [["value", "invalid"]]],
    ["an escape of a plain letter", ["user_name"], "ilike", "\\d%", [["value", "invalid"]]],
    ["a string for is_null", ["user_name"], "is_null", "yes", [["value", "invalid"]]],
    ["a number for array_contains", ["accessed_databases"], "array_contains", 1, [["value", "invalid"]]]
  ]
  it.each(wrong)("rejects %s at the value", (_, path, operator, value, expected) => {
    const result = validate(rawGroup([rawGroup([rawLeaf(path, operator, value)])]), "organization")
    expect(issues(result)).toEqual(
      expected.map(([suffix, issue]) => [`filter_expression.filters[0].filters[0].${suffix}`, issue])
    )
  })

  it("a missing value is missing, except for is_null", () => {
    const result = validate(rawGroup([rawLeaf(["warehouse_name"], "=")]), "organization")
    expect(issues(result)).toEqual([["filter_expression.filters[0].value", "missing"]])
  })

  it("points null at is_null", () => {
    const result = validate(rawGroup([rawLeaf(["warehouse_name"], "!=", null)]), "organization")
    expect(messages(result)).toEqual(["must be a string; to match missing values use is_null"])
  })

  it("explains the escape rule of ilike", () => {
    const result = validate(rawGroup([rawLeaf(["user_name"], "ilike", "a\\b")]), "organization")
    expect(messages(result)).toEqual(["a backslash must be followed by %, _ or \\"])
  })
})

describe("validate: dimensions and scopes", () => {
  it("account and region are organization dimensions, not team ones", () => {
    const byAccount = rawGroup([rawLeaf(["account_name"], "=", "prod"), rawLeaf(["region"], "=", "eu")])
    right(validate(byAccount, "organization"))
    expect(issues(validate(byAccount, "team"))).toEqual([
      ["filter_expression.filters[0].field.path", "unknown"],
      ["filter_expression.filters[1].field.path", "unknown"]
    ])
  })

  it("names the scope and where to look up its dimensions", () => {
    const result = validate(rawGroup([rawLeaf(["account_name"], "=", "prod")]), "team")
    expect(messages(result)).toEqual([
      "no dimension 'account_name' for team usage group sets; see GET /v2/usage-dimensions?scope=team"
    ])
  })

  it("knows no dimension that is an Object.prototype member", () => {
    const result = validate(rawGroup([rawLeaf(["constructor"], "is_null", true)]), "organization")
    expect(issues(result)).toEqual([["filter_expression.filters[0].field.path", "unknown"]])
  })

  it.each([[["tags"]], [["tags", "a", "b"]], [["tags", ""]]])("a tag path %j must name exactly one tag", (path) => {
    const result = validate(rawGroup([rawLeaf(path, "=", "x")]), "organization")
    expect(issues(result)).toEqual([["filter_expression.filters[0].field.path", "unknown"]])
    expect(messages(result)).toEqual(["a tag filter names one tag: [\"tags\", \"<tag name>\"]"])
  })

  it("a plain dimension takes no further path segments", () => {
    const result = validate(rawGroup([rawLeaf(["warehouse_name", "x"], "=", "x")]), "organization")
    expect(issues(result)).toEqual([["filter_expression.filters[0].field.path", "unknown"]])
  })

  it.each([
    ["no field", { operator: "=", value: "x" }, "field", "missing"],
    ["a string field", { field: "warehouse_name", operator: "=", value: "x" }, "field", "invalid"],
    ["no path", { field: {}, operator: "=", value: "x" }, "field.path", "missing"],
    ["an empty path", { field: { path: [] }, operator: "=", value: "x" }, "field.path", "invalid"],
    ["a dotted string path", { field: { path: "warehouse_name" }, operator: "=", value: "x" }, "field.path", "invalid"],
    ["a number in the path", { field: { path: ["tags", 7] }, operator: "=", value: "x" }, "field.path[1]", "invalid"],
    [
      "an unknown key in field",
      { field: { path: ["user_name"], label: "x" }, operator: "=", value: "x" },
      "field.label",
      "unknown"
    ]
  ])("rejects %s", (_, leaf, suffix, issue) => {
    expect(issues(validate(rawGroup([leaf]), "organization"))).toEqual([[`filter_expression.filters[0].${suffix}`, issue]])
  })
})

describe("validate: structure", () => {
  it("reports the exact leaf deep inside", () => {
    const input = rawGroup([
      warehouseIsEtl,
      warehouseIsEtl,
      rawGroup([rawLeaf(["user_name"], "=", 3), warehouseIsEtl], "or")
    ])
    expect(issues(validate(input, "organization"))).toEqual([["filter_expression.filters[2].filters[0].value", "invalid"]])
  })

  it("reports every problem at once, under the caller's prefix", () => {
    const input = rawGroup(
      [
        rawLeaf(["nope"], "=", "x"),
        rawLeaf(["warehouse_name"], "=", 1, { not: "yes" }),
        rawGroup([], "xor"),
        7
      ],
      "and",
      { component_type: "Cost Filter", extra: 1 }
    )
    expect(issues(validate(input, "organization", "filter_expression_json"))).toEqual([
      ["filter_expression_json.extra", "unknown"],
      ["filter_expression_json.component_type", "invalid"],
      ["filter_expression_json.filters[0].field.path", "unknown"],
      ["filter_expression_json.filters[1].not", "invalid"],
      ["filter_expression_json.filters[1].value", "invalid"],
      ["filter_expression_json.filters[2].operator", "invalid"],
      ["filter_expression_json.filters[2].filters", "empty"],
      ["filter_expression_json.filters[3]", "invalid"]
    ])
  })

  it.each([null, [], "and", 5, true])("rejects %j as an expression", (input) => {
    expect(issues(validate(input, "organization"))).toEqual([["filter_expression", "invalid"]])
  })

  it("the top level must be a group", () => {
    expect(issues(validate({ operator: "and" }, "organization"))).toEqual([["filter_expression.filters", "missing"]])
  })

  it("a group needs an operator and an array of filters", () => {
    expect(issues(validate({ filters: {} }, "organization"))).toEqual([
      ["filter_expression.operator", "missing"],
      ["filter_expression.filters", "invalid"]
    ])
  })

  it("rejects unknown keys on a leaf", () => {
    const result = validate(rawGroup([{ ...warehouseIsEtl, values: ["x"] }]), "organization")
    expect(issues(result)).toEqual([["filter_expression.filters[0].values", "unknown"]])
  })

  const nested = (depth: number): unknown => (depth === 1 ? rawGroup([warehouseIsEtl]) : rawGroup([nested(depth - 1)]))

  it(`nests groups ${MAX_DEPTH} deep, not deeper`, () => {
    right(validate(nested(MAX_DEPTH), "organization"))
    const tooDeep = "filter_expression" + ".filters[0]".repeat(MAX_DEPTH)
    expect(issues(validate(nested(MAX_DEPTH + 1), "organization"))).toEqual([[tooDeep, "too_deep"]])
  })

  it(`holds ${MAX_LEAVES} leaves, not more`, () => {
    right(validate(rawGroup(Array.from({ length: MAX_LEAVES }, () => warehouseIsEtl)), "organization"))
    const tooMany = rawGroup([
      rawGroup(Array.from({ length: MAX_LEAVES }, () => warehouseIsEtl)),
      warehouseIsEtl
    ])
    expect(issues(validate(tooMany, "organization"))).toEqual([["filter_expression", "too_many"]])
  })

  it.each(["contains", "starts_with", "ends_with", "ilike"])(
    `a %s value holds ${MAX_FILTER_TEXT} characters, not more, reported at its leaf`,
    (operator) => {
      // Code points, not UTF-16 units: 1,000 emoji are 2,000 units and still allowed.
      right(validate(rawGroup([rawLeaf(["user_name"], operator, "😀".repeat(MAX_FILTER_TEXT))]), "organization"))
      const long = rawGroup([warehouseIsEtl, rawGroup([rawLeaf(["tags", "team"], operator, "a".repeat(MAX_FILTER_TEXT + 1))])])
      const result = validate(long, "organization")
      expect(issues(result)).toEqual([["filter_expression.filters[1].filters[0].value", "too_long"]])
      expect(messages(result)).toEqual([`must be at most ${MAX_FILTER_TEXT} characters; this one has ${MAX_FILTER_TEXT + 1}`])
    }
  )

  it("accepts component_type only as 'Resource Filter', on nested groups too", () => {
    const input = rawGroup([rawGroup([warehouseIsEtl], "or", { component_type: "Resource" })])
    expect(issues(validate(input, "organization"))).toEqual([["filter_expression.filters[0].component_type", "invalid"]])
  })
})

describe("fromJson", () => {
  const text = JSON.stringify(rawGroup([warehouseIsEtl]))

  it("reads the JSON form like the object form", () => {
    expect(right(fromJson(text, "team"))).toStrictEqual(right(validate(rawGroup([warehouseIsEtl]), "team")))
  })

  it("prefixes issues with filter_expression_json", () => {
    const result = fromJson(JSON.stringify(rawGroup([rawLeaf(["user_name"], "=", 1)])), "team")
    expect(issues(result)).toEqual([["filter_expression_json.filters[0].value", "invalid"]])
  })

  it("gives the position of a syntax error", () => {
    const result = fromJson("{\"operator\": \"and\",\n \"filters\": [}", "team")
    expect(issues(result)).toEqual([["filter_expression_json", "invalid_json"]])
    expect(messages(result)).toEqual(["is not valid JSON: unexpected \"}\" at line 2, column 14 (position 33)"])
  })

  it("says when the text ends too early", () => {
    expect(messages(fromJson("{\"operator\": ", "team"))).toEqual([
      "is not valid JSON: unexpected end of JSON at line 1, column 14 (position 13)"
    ])
  })

  it.each([null, 5, { operator: "and" }])("rejects %j, which is not a string", (value) => {
    expect(issues(fromJson(value, "team"))).toEqual([["filter_expression_json", "invalid"]])
  })
})

describe("fromWriteInput", () => {
  const object = rawGroup([warehouseIsEtl])
  const expected = right(validate(object, "team"))

  it("reads filter_expression", () => {
    expect(right(fromWriteInput({ filter_expression: object }, "team"))).toEqual(Option.some(expected))
  })

  it("reads filter_expression_json", () => {
    const json = JSON.stringify(object)
    expect(right(fromWriteInput({ filter_expression_json: json }, "team"))).toEqual(Option.some(expected))
  })

  it("reads the filter of a decoded create input", () => {
    const input = Schema.decodeUnknownSync(CreateUsageGroup)({ name: "ETL", filter_expression: object })
    expect(right(fromWriteInput(input, "team"))).toEqual(Option.some(expected))
  })

  it("is none when neither is given", () => {
    expect(right(fromWriteInput({}, "team"))).toEqual(Option.none())
  })

  it("rejects a null filter under its own name", () => {
    expect(issues(fromWriteInput({ filter_expression: null }, "team"))).toEqual([["filter_expression", "invalid"]])
    expect(issues(fromWriteInput({ filter_expression_json: null }, "team"))).toEqual([["filter_expression_json", "invalid"]])
  })
})

describe("serialize", () => {
  it("writes the normalised form, whatever the key order of the object it is given", () => {
    const expression = right(validate(rawGroup([warehouseIsEtl]), "team"))
    const reordered = {
      filters: [{ not: false, value: "ETL", operator: "=", field: { path: ["warehouse_name"], field: "warehouse_name" } }],
      not: false,
      operator: "and",
      component_type: "Resource Filter"
    } as const
    expect(serialize(reordered)).toBe(serialize(expression))
    expect(serialize(expression)).toBe(
      "{\"component_type\":\"Resource Filter\",\"operator\":\"and\",\"not\":false,\"filters\":[" +
        "{\"field\":{\"field\":\"warehouse_name\",\"path\":[\"warehouse_name\"]}," +
        "\"operator\":\"=\",\"value\":\"ETL\",\"not\":false}]}"
    )
  })
})
