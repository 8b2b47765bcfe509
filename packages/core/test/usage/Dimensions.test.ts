import { describe, expect, it } from "@effect/vitest"
import { Either, Schema } from "effect"
import { UsageRecord } from "../../src/usage/Domain.js"
import { CATALOGUE, catalogueFor, Dimension, OPERATORS, resolve } from "../../src/usage/Dimensions.js"
import { SCOPES } from "./arbitraries.js"

const names = (scope: Parameters<typeof catalogueFor>[0]) => catalogueFor(scope).map((d) => d.path.join("."))

describe("dimension catalogue", () => {
  it("every dimension names a field of a usage record, once", () => {
    const fields = Object.keys(UsageRecord.fields)
    for (const d of CATALOGUE) expect(fields).toContain(d.path[0])
    expect(new Set(CATALOGUE.map((d) => d.path[0])).size).toBe(CATALOGUE.length)
  })

  it("lists each dimension with the operators of its type (a tag map's values are strings)", () => {
    for (const d of CATALOGUE) expect(d.operators).toEqual(OPERATORS[d.type === "tag_map" ? "string" : d.type])
  })

  it("account and region are dimensions of the multi-account scopes only", () => {
    for (const scope of ["organization", "service_organization"] as const) {
      expect(names(scope)).toEqual(expect.arrayContaining(["account_name", "region"]))
    }
    for (const scope of ["team", "account"] as const) {
      expect(names(scope)).not.toContain("account_name")
      expect(names(scope)).not.toContain("region")
    }
  })

  it("the data-warehouse organization is a dimension of service organizations only", () => {
    expect(SCOPES.filter((scope) => names(scope).includes("dw_organization_name"))).toEqual(["service_organization"])
  })

  it.each(SCOPES)("%s scope has the common dimensions", (scope) => {
    expect(names(scope)).toEqual(expect.arrayContaining([
      "warehouse_name", "user_name", "role_name", "database_name", "schema_name", "query_tag",
      "query_type", "warehouse_size", "tags", "dbt_project", "dbt_model"
    ]))
  })

  it("is publishable as JSON", () => {
    const published = Schema.encodeSync(Schema.Array(Dimension))(catalogueFor("team"))
    const tags = published.find((d) => d.path[0] === "tags")
    expect(tags).toMatchObject({ path: ["tags"], type: "tag_map", label: "Tag" })
    expect(JSON.parse(JSON.stringify(published))).toEqual(published)
  })
})

describe("resolve", () => {
  it("gives the value type of a plain dimension", () => {
    expect(Either.map(resolve("team", ["bytes_scanned"]), (r) => r.valueType)).toEqual(Either.right("number"))
  })

  it("a tag's value is a string", () => {
    expect(Either.map(resolve("team", ["tags", "owner"]), (r) => r.valueType)).toEqual(Either.right("string"))
  })

  it.each([
    [["tags"], "tag_name"],
    [["tags", "a", "b"], "tag_name"],
    [["nope"], "unknown"],
    [[], "unknown"],
    [["__proto__"], "unknown"],
    [["user_name", "x"], "unknown"],
    [["region"], "unknown"]
  ])("%j at team scope → %s", (path, error) => {
    expect(resolve("team", path)).toEqual(Either.left(error))
  })
})
