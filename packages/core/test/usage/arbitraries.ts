/**
 * Generators shared by the usage property tests: valid filter inputs over the catalogue, and
 * usage records whose values collide with the filters' often enough for matches to happen.
 */
import { FastCheck as fc } from "effect"
import type { FilterOperator, UsageRecord, UsageScope } from "../../src/usage/Domain.js"
import { catalogueFor, OPERAND, OPERATORS, type ValueType } from "../../src/usage/Dimensions.js"

export const SCOPES: ReadonlyArray<UsageScope> = ["organization", "team", "account", "service_organization"]

const TAG_NAMES = ["team", "cost_center"] as const
const STRINGS = ["ETL", "etl", "BI_WH", "Finance", "fin%", ""] as const

const someString = fc.constantFrom(...STRINGS)
const someNonEmptyString = fc.constantFrom(...STRINGS.filter((s) => s.length > 0))
const someNumber = fc.constantFrom(0, -0, 1, 5, 2.5, 100)
const somePattern = fc.constantFrom("e%", "%l", "_TL", "%", "fin\\%", "%a%")

const scalarOf = (type: "string" | "number" | "boolean"): fc.Arbitrary<string | number | boolean> =>
  type === "string" ? someString : type === "number" ? someNumber : fc.boolean()

/** A value `operator` accepts for `type`, or undefined where the value may be left out. */
const valueFor = (type: ValueType, operator: FilterOperator): fc.Arbitrary<unknown> => {
  switch (OPERAND[operator]) {
    case "scalar":
      return scalarOf(type as "string" | "number" | "boolean")
    case "list":
      return fc.array(scalarOf(type as "string" | "number"), { minLength: 1, maxLength: 3 })
    case "substring":
    case "element":
      return someNonEmptyString
    case "pattern":
      return somePattern
    case "flag":
      return fc.option(fc.boolean(), { nil: undefined })
  }
}

const pathsOf = (scope: UsageScope): fc.Arbitrary<{ path: Array<string>; type: ValueType }> =>
  fc.constantFrom(...catalogueFor(scope)).chain((d) =>
    d.type === "tag_map"
      ? fc.constantFrom(...TAG_NAMES).map((tag) => ({ path: [...d.path, tag], type: "string" as const }))
      : fc.constant({ path: [...d.path], type: d.type })
  )

/** Optional keys are sometimes left out, to exercise the defaults. */
const withOptional = (object: Record<string, unknown>, optional: Record<string, unknown>) => {
  const out = { ...object }
  for (const [key, value] of Object.entries(optional)) if (value !== undefined) out[key] = value
  return out
}

/** A raw leaf, as a client would send it. */
export const leafInput = (scope: UsageScope): fc.Arbitrary<Record<string, unknown>> =>
  pathsOf(scope).chain(({ path, type }) =>
    fc.constantFrom(...OPERATORS[type]).chain((operator) =>
      fc.record({
        value: valueFor(type, operator),
        not: fc.option(fc.boolean(), { nil: undefined }),
        echoedField: fc.option(fc.string(), { nil: undefined })
      }).map(({ echoedField, not, value }) =>
        withOptional(
          { field: withOptional({ path }, { field: echoedField }), operator },
          { value, not }
        )
      )
    )
  )

/** A raw expression, groups nested up to `depth` deep (the top level counts). */
export const expressionInput = (scope: UsageScope, depth = 3): fc.Arbitrary<Record<string, unknown>> => {
  const groupAt = (level: number): fc.Arbitrary<Record<string, unknown>> => {
    const child = level < depth ? fc.oneof(leafInput(scope), groupAt(level + 1)) : leafInput(scope)
    return fc.record({
      operator: fc.constantFrom("and", "or"),
      filters: fc.array(child, { minLength: 1, maxLength: 3 }),
      not: fc.option(fc.boolean(), { nil: undefined }),
      component_type: fc.option(fc.constant("Resource Filter"), { nil: undefined })
    }).map(({ component_type, filters, not, operator }) =>
      withOptional({ operator, filters }, { not, component_type })
    )
  }
  return groupAt(1)
}

/** A usage record; dimensions are absent (left out by fc.record) or null (fc.option) often. */
export const usageRecord: fc.Arbitrary<UsageRecord> = fc.tuple(
  fc.record({
    start_time: fc.date({
      min: new Date("2024-01-01T00:00:00Z"),
      max: new Date("2025-12-31T23:59:59Z"),
      noInvalidDate: true
    }),
    credits: fc.double({ min: 0, max: 100, noNaN: true })
  }),
  fc.record({
    warehouse_name: fc.option(someString),
    user_name: fc.option(someString),
    role_name: fc.option(someString),
    query_tag: fc.option(someString),
    is_serverless: fc.option(fc.boolean()),
    execution_time_ms: fc.option(someNumber),
    accessed_databases: fc.option(fc.array(someNonEmptyString, { maxLength: 3 })),
    tags: fc.option(fc.dictionary(fc.constantFrom(...TAG_NAMES), someString)),
    account_name: fc.option(someString)
  }, { requiredKeys: [] })
).map(([required, dimensions]) => ({ ...required, ...dimensions }))
