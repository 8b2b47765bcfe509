/**
 * Usage group filter expressions: read either write form, validate against the dimension
 * catalogue of the set's scope, normalise, serialise, and compile into a predicate over usage
 * records.
 *
 * Validation reports every problem at once, each at its exact path (for example
 * `filter_expression.filters[2].filters[0].value`), and never throws, whatever the input.
 *
 * Evaluation (compile, evaluate) lives in FilterEvaluation and is re-exported here.
 */
import { Either, Option } from "effect"
import { FieldIssue, ValidationFailed } from "../shared/Errors.js"
import {
  COMPONENT_TYPE,
  type FilterExpression,
  type FilterGroup,
  type FilterInput,
  type FilterLeaf,
  type FilterNode,
  FilterOperator,
  type FilterScalar,
  type FilterValue,
  GroupOperator,
  isGroup,
  type UsageScope
} from "./Domain.js"
import { OPERAND, OPERATORS, resolve, type ValueType } from "./Dimensions.js"
import { locateSyntaxError } from "./internal/JsonSyntax.js"
import { patternProblem } from "./internal/Like.js"

export { compile, evaluate, type RecordPredicate } from "./internal/FilterEvaluation.js"

/**
 * Groups nest at most this deep; the top-level group is at depth 1.
 * @since 0.1.0
 * @category constants
 */
export const MAX_DEPTH = 5
/**
 * Leaves in a whole expression, at most.
 * @since 0.1.0
 * @category constants
 */
export const MAX_LEAVES = 200
/**
 * Characters (code points) in a `contains`, `starts_with`, `ends_with` or `ilike` value, at most:
 * with it, matching one record costs at most 32 steps per character of its value (see Like).
 * @since 0.1.0
 * @category constants
 */
export const MAX_FILTER_TEXT = 1000

// ---------------------------------------------------------------------------------------------
// Construction. Both validation and serialisation build nodes here, so the key order is fixed in
// one place and the JSON form is stable.

/**
 * @since 0.1.0
 * @category utils
 */
export const leaf = (
  path: ReadonlyArray<string>,
  operator: FilterOperator,
  value: FilterValue,
  not = false
): FilterLeaf => ({ field: { field: path.join("."), path: [...path] }, operator, value, not })

/**
 * @since 0.1.0
 * @category utils
 */
export const group = (operator: GroupOperator, filters: ReadonlyArray<FilterNode>, not = false): FilterGroup => ({
  component_type: COMPONENT_TYPE,
  operator,
  not,
  filters
})

/**
 * @since 0.1.0
 * @category utils
 */
export const and = (...filters: ReadonlyArray<FilterNode>) => group("and", filters)
/**
 * @since 0.1.0
 * @category utils
 */
export const or = (...filters: ReadonlyArray<FilterNode>) => group("or", filters)
/**
 * @since 0.1.0
 * @category utils
 */
export const negate = (node: FilterNode): FilterNode => ({ ...node, not: !node.not })

const canonical = (node: FilterNode): FilterNode =>
  isGroup(node)
    ? group(node.operator, node.filters.map(canonical), node.not)
    : leaf(node.field.path, node.operator, node.value, node.not)

/**
 * The `filter_expression_json` form of an expression.
 * @since 0.1.0
 * @category utils
 */
export const serialize = (expression: FilterExpression): string => JSON.stringify(canonical(expression))

// ---------------------------------------------------------------------------------------------
// Validation and normalisation.

interface Walk {
  readonly scope: UsageScope
  readonly issues: Array<FieldIssue>
  leaves: number
}

const GROUP_KEYS = new Set(["component_type", "operator", "not", "filters"])
const LEAF_KEYS = new Set(["field", "operator", "value", "not"])
/** `field.field` is returned only; a request that echoes a response back may carry it. */
const FIELD_KEYS = new Set(["path", "field"])

const report = (walk: Walk, field: string, issue: string, message: string) => {
  walk.issues.push(new FieldIssue({ field, issue, message }))
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value)

const rejectUnknownKeys = (walk: Walk, node: Record<string, unknown>, allowed: ReadonlySet<string>, at: string) => {
  for (const key of Object.keys(node)) {
    if (!allowed.has(key)) report(walk, `${at}.${key}`, "unknown", `unknown property '${key}'`)
  }
}

const readChoice = <A extends string>(
  walk: Walk,
  node: Record<string, unknown>,
  key: string,
  choices: ReadonlyArray<A>,
  at: string
): A | undefined => {
  const value = node[key]
  if (value === undefined) {
    report(walk, `${at}.${key}`, "missing", `${key} is required`)
    return undefined
  }
  if (typeof value === "string" && (choices as ReadonlyArray<string>).includes(value)) return value as A
  report(walk, `${at}.${key}`, "invalid", `must be one of: ${choices.join(", ")}`)
  return undefined
}

const readNot = (walk: Walk, node: Record<string, unknown>, at: string): boolean | undefined => {
  const value = node.not
  if (value === undefined) return false
  if (typeof value === "boolean") return value
  report(walk, `${at}.not`, "invalid", "must be true or false")
  return undefined
}

const readNode = (walk: Walk, node: unknown, at: string, depth: number): FilterNode | undefined => {
  if (!isObject(node)) {
    report(walk, at, "invalid", "must be a filter { field, operator, value } or a group { operator, filters }")
    return undefined
  }
  return "filters" in node ? readGroup(walk, node, at, depth) : readLeaf(walk, node, at)
}

const readGroup = (walk: Walk, node: Record<string, unknown>, at: string, depth: number): FilterGroup | undefined => {
  if (depth > MAX_DEPTH) {
    report(walk, at, "too_deep", `groups nest at most ${MAX_DEPTH} deep`)
    return undefined
  }
  rejectUnknownKeys(walk, node, GROUP_KEYS, at)
  if (node.component_type !== undefined && node.component_type !== COMPONENT_TYPE) {
    report(walk, `${at}.component_type`, "invalid", `must be '${COMPONENT_TYPE}'`)
  }
  const operator = readChoice(walk, node, "operator", GroupOperator.literals, at)
  const not = readNot(walk, node, at)
  const filters = readFilters(walk, node.filters, `${at}.filters`, depth)
  return operator === undefined || not === undefined || filters === undefined
    ? undefined
    : group(operator, filters, not)
}

const readFilters = (walk: Walk, filters: unknown, at: string, depth: number) => {
  if (filters === undefined) {
    report(walk, at, "missing", "filters is required")
    return undefined
  }
  if (!Array.isArray(filters)) {
    report(walk, at, "invalid", "must be an array of filters and groups")
    return undefined
  }
  if (filters.length === 0) {
    report(walk, at, "empty", "a group needs at least one filter")
    return undefined
  }
  const nodes = filters.map((child, i) => readNode(walk, child, `${at}[${i}]`, depth + 1))
  return nodes.every((n) => n !== undefined) ? nodes as Array<FilterNode> : undefined
}

const readLeaf = (walk: Walk, node: Record<string, unknown>, at: string): FilterLeaf | undefined => {
  walk.leaves++
  rejectUnknownKeys(walk, node, LEAF_KEYS, at)
  const target = readField(walk, node.field, `${at}.field`)
  const operator = readChoice(walk, node, "operator", FilterOperator.literals, at)
  const not = readNot(walk, node, at)
  if (target === undefined || operator === undefined) return undefined
  if (!OPERATORS[target.valueType].includes(operator)) {
    report(
      walk,
      `${at}.operator`,
      "not_allowed",
      `'${operator}' does not apply to ${target.valueType} dimension '${target.path.join(".")}'; ` +
        `use one of: ${OPERATORS[target.valueType].join(", ")}`
    )
    return undefined
  }
  const value = readValue(walk, node, operator, target.valueType, `${at}.value`)
  return value === undefined || not === undefined ? undefined : leaf(target.path, operator, value, not)
}

const readField = (walk: Walk, field: unknown, at: string) => {
  if (field === undefined) {
    report(walk, at, "missing", "field is required: { \"path\": [\"<dimension>\"] }")
    return undefined
  }
  if (!isObject(field)) {
    report(walk, at, "invalid", "must be an object: { \"path\": [\"<dimension>\"] }")
    return undefined
  }
  rejectUnknownKeys(walk, field, FIELD_KEYS, at)
  const path = field.path
  if (path === undefined) {
    report(walk, `${at}.path`, "missing", "path is required")
    return undefined
  }
  if (!Array.isArray(path) || path.length === 0) {
    report(walk, `${at}.path`, "invalid", "must be a non-empty array of strings")
    return undefined
  }
  const notString = path.findIndex((segment) => typeof segment !== "string")
  if (notString >= 0) {
    report(walk, `${at}.path[${notString}]`, "invalid", "must be a string")
    return undefined
  }
  const segments = path as Array<string>
  const resolved = resolve(walk.scope, segments)
  if (Either.isLeft(resolved)) {
    report(
      walk,
      `${at}.path`,
      "unknown",
      resolved.left === "tag_name"
        ? "a tag filter names one tag: [\"tags\", \"<tag name>\"]"
        : `no dimension '${segments.join(".")}' for ${walk.scope} usage group sets; ` +
          `see GET /v2/usage-dimensions?scope=${walk.scope}`
    )
    return undefined
  }
  return { path: segments, valueType: resolved.right.valueType }
}

/** JSON has no -0: turning it into 0 keeps every validated expression stable through JSON. */
const normaliseScalar = (value: FilterScalar): FilterScalar => (value === 0 ? 0 : value)

interface ScalarCheck {
  readonly is: (value: unknown) => boolean
  readonly one: string
  readonly many: string
}

const SCALAR_CHECKS: Record<Exclude<ValueType, "string[]">, ScalarCheck> = {
  string: { is: (v) => typeof v === "string", one: "a string", many: "strings" },
  number: { is: (v) => typeof v === "number" && Number.isFinite(v), one: "a finite number", many: "finite numbers" },
  boolean: { is: (v) => typeof v === "boolean", one: "true or false", many: "booleans" }
}

/** Reports a text value over MAX_FILTER_TEXT characters. */
const tooLong = (walk: Walk, value: string, at: string): boolean => {
  // UTF-16 length bounds the code points from above: most values need no counting.
  if (value.length <= MAX_FILTER_TEXT) return false
  const characters = Array.from(value).length
  if (characters <= MAX_FILTER_TEXT) return false
  report(walk, at, "too_long", `must be at most ${MAX_FILTER_TEXT} characters; this one has ${characters}`)
  return true
}

const readValue = (
  walk: Walk,
  node: Record<string, unknown>,
  operator: FilterOperator,
  valueType: ValueType,
  at: string
): FilterValue | undefined => {
  const value = node.value
  const operand = OPERAND[operator]
  if (operand === "flag") {
    if (value === undefined) return true
    if (typeof value === "boolean") return value
    report(walk, at, "invalid", "is_null takes true (is null) or false (is not null)")
    return undefined
  }
  if (value === undefined) {
    report(walk, at, "missing", `'${operator}' needs a value`)
    return undefined
  }
  const invalid = (message: string) => {
    report(walk, at, "invalid", value === null ? `${message}; to match missing values use is_null` : message)
    return undefined
  }
  switch (operand) {
    case "scalar": {
      // OPERATORS never pairs a scalar operator with string[].
      const check = SCALAR_CHECKS[valueType as Exclude<ValueType, "string[]">]
      return check.is(value) ? normaliseScalar(value as FilterScalar) : invalid(`must be ${check.one}`)
    }
    case "list": {
      const check = SCALAR_CHECKS[valueType as "string" | "number"]
      if (!Array.isArray(value) || value.length === 0) return invalid(`must be a non-empty array of ${check.many}`)
      const wrong = value.flatMap((element, i) => (check.is(element) ? [] : [i]))
      for (const i of wrong) report(walk, `${at}[${i}]`, "invalid", `must be ${check.one}`)
      return wrong.length === 0 ? value.map(normaliseScalar) as FilterValue : undefined
    }
    case "substring":
      if (typeof value !== "string" || value.length === 0) return invalid("must be a non-empty string")
      return tooLong(walk, value, at) ? undefined : value
    case "pattern": {
      if (typeof value !== "string" || value.length === 0) return invalid("must be a non-empty string")
      if (tooLong(walk, value, at)) return undefined
      const problem = patternProblem(value)
      return problem === undefined ? value : invalid(problem)
    }
    case "element":
      return typeof value === "string" ? value : invalid("must be a string")
  }
}

/**
 * Validates a `filter_expression` object against the catalogue of `scope` and returns its
 * normalised form. `field` prefixes the issue paths.
 * @since 0.1.0
 * @category utils
 */
export const validate = (
  input: unknown,
  scope: UsageScope,
  field = "filter_expression"
): Either.Either<FilterExpression, ValidationFailed> => {
  if (!isObject(input)) {
    return Either.left(ValidationFailed.single(field, "invalid", "must be a filter group: { operator, filters }"))
  }
  const walk: Walk = { scope, issues: [], leaves: 0 }
  const expression = readGroup(walk, input, field, 1)
  if (walk.leaves > MAX_LEAVES) {
    report(walk, field, "too_many", `at most ${MAX_LEAVES} filters; this expression has ${walk.leaves}`)
  }
  return expression !== undefined && walk.issues.length === 0
    ? Either.right(expression)
    : Either.left(new ValidationFailed({ message: `invalid ${field}`, details: walk.issues }))
}

/**
 * Reads the `filter_expression_json` form: JSON text holding what `validate` accepts.
 * @since 0.1.0
 * @category utils
 */
export const fromJson = (
  text: unknown,
  scope: UsageScope,
  field = "filter_expression_json"
): Either.Either<FilterExpression, ValidationFailed> => {
  if (typeof text !== "string") {
    return Either.left(ValidationFailed.single(field, "invalid", "must be a string holding the expression as JSON"))
  }
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch {
    return Either.left(ValidationFailed.single(field, "invalid_json", describeSyntaxError(text)))
  }
  return validate(parsed, scope, field)
}

const describeSyntaxError = (text: string): string => {
  const location = locateSyntaxError(text)
  if (location === undefined) return "is not valid JSON"
  const found = location.found === undefined ? "unexpected end of JSON" : `unexpected ${JSON.stringify(location.found)}`
  return `is not valid JSON: ${found} at line ${location.line}, column ${location.column} (position ${location.offset})`
}

/**
 * The filter of a create or patch input, from whichever form it carries; none when it carries
 * neither (a patch that leaves the filter alone). The input schemas already reject both at once.
 * @since 0.1.0
 * @category utils
 */
export const fromWriteInput = (
  input: FilterInput,
  scope: UsageScope
): Either.Either<Option.Option<FilterExpression>, ValidationFailed> => {
  if ("filter_expression_json" in input) return Either.map(fromJson(input.filter_expression_json, scope), Option.some)
  if ("filter_expression" in input) return Either.map(validate(input.filter_expression, scope), Option.some)
  return Either.right(Option.none())
}
