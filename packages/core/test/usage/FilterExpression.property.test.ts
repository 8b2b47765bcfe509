import { describe, expect, it } from "@effect/vitest"
import { Either, FastCheck as fc, Schema } from "effect"
import type { ValidationFailed } from "../../src/shared/Errors.js"
import { type FilterExpression, FilterExpressionInput, type UsageScope } from "../../src/usage/Domain.js"
import { and, evaluate, fromJson, negate, or, serialize, validate } from "../../src/usage/FilterExpression.js"
import { expressionInput, SCOPES, usageRecord } from "./arbitraries.js"
import { right } from "./helpers.js"

const scopedExpression = fc.constantFrom(...SCOPES).chain((scope) =>
  expressionInput(scope).map((input) => ({ scope, input }))
)

/** Small validated expressions over the organization catalogue, as operands of De Morgan's laws. */
const operand = expressionInput("organization", 2).map((input) => right(validate(input, "organization")))

/** Shaped like an expression, filled with anything: reaches deeper into the validator than noise. */
const expressionLike = fc.letrec((tie) => ({
  node: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    fc.anything(),
    fc.record({
      operator: fc.oneof(fc.constantFrom("and", "or", "=", "in", "ilike", "is_null"), fc.anything()),
      filters: fc.oneof(fc.array(tie("node"), { maxLength: 4 }), fc.anything()),
      field: fc.oneof(
        fc.record({ path: fc.array(fc.oneof(fc.constantFrom("warehouse_name", "tags", "team"), fc.anything())) }),
        fc.anything()
      ),
      value: fc.anything(),
      not: fc.anything(),
      component_type: fc.anything()
    }, { requiredKeys: [] })
  )
})).node

/** Whatever came back is a well-formed answer: an expression, or issues under the prefix. */
const expectAnswer = (result: Either.Either<FilterExpression, ValidationFailed>, prefix: string) => {
  if (Either.isLeft(result)) {
    expect(result.left.details.length).toBeGreaterThan(0)
    for (const detail of result.left.details) expect(detail.field.startsWith(prefix)).toBe(true)
  } else {
    expect(typeof serialize(result.right)).toBe("string")
  }
}

describe("filter expression properties", () => {
  const roundTrip = { case: scopedExpression }
  it.prop("a validated expression round-trips through JSON unchanged", roundTrip, ({ case: { input, scope } }) => {
    const expression = right(validate(input, scope))
    const text = serialize(expression)
    expect(right(fromJson(text, scope))).toStrictEqual(expression)
    expect(serialize(right(fromJson(text, scope)))).toBe(text)
    expect(right(validate(expression, scope))).toStrictEqual(expression)
  }, { fastCheck: { numRuns: 500 } })

  // The documented write form (OpenAPI `FilterExpressionInput`) says no less than the validator:
  // what it accepts, and what it returns (a response's filter sent back), fit the schema.
  const documented = Schema.is(FilterExpressionInput, { onExcessProperty: "error" })
  it.prop("every expression the validator accepts fits the documented schema, as given and normalised", roundTrip, ({ case: { input, scope } }) => {
    expect(documented(input)).toBe(true)
    expect(documented(right(validate(input, scope)))).toBe(true)
  }, { fastCheck: { numRuns: 300 } })

  const deMorgan = { a: operand, b: operand, record: usageRecord }
  it.prop("not (a and b) is (not a) or (not b), and dually", deMorgan, ({ a, b, record }) => {
    expect(evaluate(negate(and(a, b)), record)).toBe(evaluate(or(negate(a), negate(b)), record))
    expect(evaluate(negate(or(a, b)), record)).toBe(evaluate(and(negate(a), negate(b)), record))
  }, { fastCheck: { numRuns: 1000 } })

  it.prop("not is the complement", { a: operand, record: usageRecord }, ({ a, record }) => {
    expect(evaluate(negate(a), record)).toBe(!evaluate(a, record))
  }, { fastCheck: { numRuns: 500 } })

  it.prop("validate answers anything without throwing", {
    input: fc.oneof(fc.anything(), expressionLike),
    scope: fc.constantFrom<UsageScope>(...SCOPES)
  }, ({ input, scope }) => {
    expectAnswer(validate(input, scope), "filter_expression")
  }, { fastCheck: { numRuns: 1000 } })

  const jsonText = fc.oneof(
    fc.string(),
    fc.json(),
    expressionLike.map((value) => JSON.stringify(value) ?? "undefined"),
    scopedExpression.chain(({ input }) =>
      fc.nat().map((cut) => JSON.stringify(input).slice(0, cut % (JSON.stringify(input).length + 1)))
    )
  )
  it.prop("fromJson answers any text without throwing", {
    text: jsonText,
    scope: fc.constantFrom<UsageScope>(...SCOPES)
  }, ({ scope, text }) => {
    expectAnswer(fromJson(text, scope), "filter_expression_json")
  }, { fastCheck: { numRuns: 1000 } })
})
