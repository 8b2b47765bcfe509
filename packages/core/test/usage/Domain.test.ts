import { describe, expect, it } from "@effect/vitest"
import { Either, ParseResult, Schema } from "effect"
import { TeamId } from "../../src/shared/Ids.js"
import {
  CreateUsageGroup,
  CreateUsageGroupSet,
  PatchUsageGroup,
  scopeOf,
  UsageRecord
} from "../../src/usage/Domain.js"

/** The distinct paths of the problems a decode reports (a union reports one per member), or []. */
const problems = <A, I>(schema: Schema.Schema<A, I>, input: unknown): Array<string> =>
  Either.match(Schema.decodeUnknownEither(schema, { errors: "all" })(input), {
    onLeft: (error) => [
      ...new Set(ParseResult.ArrayFormatter.formatErrorSync(error).map((issue) => issue.path.join(".")))
    ],
    onRight: () => []
  })

const filter = { operator: "and", filters: [] }

describe("CreateUsageGroupSet", () => {
  it("defaults order to 0 and the team to none", () => {
    const set = Schema.decodeUnknownSync(CreateUsageGroupSet)({ name: "Cost centers" })
    expect(set).toMatchObject({ name: "Cost centers", order: 0, team_id: null })
  })

  it("accepts and ignores the deprecated warehouse fields", () => {
    expect(problems(CreateUsageGroupSet, { name: "a", dw_account_uuid: "x", dw_organization_name: null })).toEqual([])
  })

  it.each([
    [{ name: "" }, ["name"]],
    [{ name: "   " }, ["name"]],
    [{ name: "a", order: -1 }, ["order"]],
    [{ name: "a", order: 1.5 }, ["order"]],
    [{ name: "a", team_id: "not-a-uuid" }, ["team_id"]],
    [{}, ["name"]]
  ])("rejects %j", (input, paths) => {
    expect(problems(CreateUsageGroupSet, input)).toEqual(paths)
  })
})

describe("CreateUsageGroup", () => {
  it("takes one filter form, defaulting order and budget", () => {
    const group = Schema.decodeUnknownSync(CreateUsageGroup)({ name: "ETL", filter_expression_json: "{}" })
    expect(group).toMatchObject({ name: "ETL", order: 0, budget: null, filter_expression_json: "{}" })
    expect("filter_expression" in group).toBe(false)
  })

  it.each([
    [{ name: "ETL" }, ["filter_expression"]],
    [{ name: "ETL", filter_expression: filter, filter_expression_json: "{}" }, ["filter_expression_json"]],
    [{ name: "ETL", filter_expression: null, filter_expression_json: null }, ["filter_expression_json"]],
    [{ name: "", filter_expression: filter }, ["name"]],
    [{ name: "ETL", budget: -1, filter_expression: filter }, ["budget"]],
    [{ name: "ETL", budget: "10", filter_expression: filter }, ["budget"]],
    [{ name: "ETL", order: -1, filter_expression: filter }, ["order"]]
  ])("rejects %j", (input, paths) => {
    expect(problems(CreateUsageGroup, input)).toEqual(paths)
  })

  it("accepts a zero budget and a null one", () => {
    expect(problems(CreateUsageGroup, { name: "a", budget: 0, filter_expression: filter })).toEqual([])
    expect(problems(CreateUsageGroup, { name: "a", budget: null, filter_expression: filter })).toEqual([])
  })
})

describe("PatchUsageGroup", () => {
  it("may change nothing", () => {
    expect(problems(PatchUsageGroup, {})).toEqual([])
  })

  it("keeps a null budget, which removes the limit, apart from an absent one", () => {
    expect(Schema.decodeUnknownSync(PatchUsageGroup)({ budget: null })).toMatchObject({ budget: null })
    expect("budget" in Schema.decodeUnknownSync(PatchUsageGroup)({})).toBe(false)
  })

  it.each([
    [{ filter_expression: filter, filter_expression_json: "{}" }, ["filter_expression_json"]],
    [{ filter_expression: null, filter_expression_json: "{}" }, ["filter_expression_json"]],
    [{ name: "" }, ["name"]],
    [{ name: null }, ["name"]],
    [{ order: null }, ["order"]],
    [{ order: 2.5 }, ["order"]],
    [{ budget: -0.01 }, ["budget"]]
  ])("rejects %j", (input, paths) => {
    expect(problems(PatchUsageGroup, input)).toEqual(paths)
  })
})

describe("scopeOf", () => {
  it("a set without a team has organization scope, with one team scope", () => {
    expect(scopeOf({ team_id: null })).toBe("organization")
    expect(scopeOf({ team_id: TeamId.make("7d1b8a52-5b8e-4f0e-9a59-2f4f3c8d9e10") })).toBe("team")
  })
})

describe("UsageRecord", () => {
  it("decodes an imported row", () => {
    const row = Schema.decodeUnknownSync(UsageRecord)({
      start_time: "2024-05-31T23:59:59Z",
      credits: 1.25,
      warehouse_name: "ETL",
      user_name: null,
      tags: { team: "data" },
      accessed_databases: ["RAW"]
    })
    expect(row.start_time.toISOString()).toBe("2024-05-31T23:59:59.000Z")
    expect(row).toMatchObject({ credits: 1.25, warehouse_name: "ETL", user_name: null, tags: { team: "data" } })
  })

  it.each([
    [{ start_time: "yesterday", credits: 1 }, ["start_time"]],
    [{ start_time: "2024-05-01T00:00:00Z", credits: "1" }, ["credits"]],
    [{ start_time: "2024-05-01T00:00:00Z", credits: 1, tags: { team: 1 } }, ["tags.team", "tags"]],
    [{ start_time: "2024-05-01T00:00:00Z", credits: 1, is_serverless: "yes" }, ["is_serverless"]]
  ])("rejects %j", (input, paths) => {
    expect(problems(UsageRecord, input)).toEqual(paths)
  })
})
