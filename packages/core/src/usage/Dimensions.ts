/**
 * The dimension catalogue: what a usage group filter may test, per set scope, with the operators
 * each dimension type admits and the value each operator needs. Published as is at
 * GET /v2/usage-dimensions?scope=.
 */
import { Either, Schema } from "effect"
import { FilterOperator, UsageScope } from "./Domain.js"

/**
 * @since 0.1.0
 * @category schemas
 */
export const DimensionType = Schema.Literal("string", "number", "boolean", "string[]", "tag_map")
/**
 * @since 0.1.0
 * @category models
 */
export type DimensionType = typeof DimensionType.Type

/**
 * What a leaf compares against: a `tag_map` leaf names one tag, whose value is a string.
 * @since 0.1.0
 * @category models
 */
export type ValueType = Exclude<DimensionType, "tag_map">

/**
 * Operators per value type; `!=` and `not_in` never match a missing value (see FilterExpression).
 * @since 0.1.0
 * @category constants
 */
export const OPERATORS: Readonly<Record<ValueType, ReadonlyArray<FilterOperator>>> = {
  string: ["=", "!=", "in", "not_in", "contains", "starts_with", "ends_with", "ilike", "is_null"],
  number: ["=", "!=", ">", ">=", "<", "<=", "in", "not_in", "is_null"],
  boolean: ["=", "!=", "is_null"],
  "string[]": ["array_contains", "is_null"]
}

/**
 * The `value` an operator needs:
 * - `scalar`: one value of the dimension's type (`=`, `!=`, `>`, `>=`, `<`, `<=`);
 * - `list`: a non-empty array of such values (`in`, `not_in`);
 * - `substring`: a non-empty string (`contains`, `starts_with`, `ends_with`);
 * - `pattern`: a non-empty string where `%` is any run, `_` one character and `\` escapes (`ilike`);
 * - `flag`: true (is null) or false (is not null); absent means true (`is_null`);
 * - `element`: one string the array must hold (`array_contains`).
 * @since 0.1.0
 * @category models
 */
export type Operand = "scalar" | "list" | "substring" | "pattern" | "flag" | "element"

/**
 * @since 0.1.0
 * @category constants
 */
export const OPERAND: Readonly<Record<FilterOperator, Operand>> = {
  "=": "scalar",
  "!=": "scalar",
  ">": "scalar",
  ">=": "scalar",
  "<": "scalar",
  "<=": "scalar",
  in: "list",
  not_in: "list",
  contains: "substring",
  starts_with: "substring",
  ends_with: "substring",
  ilike: "pattern",
  is_null: "flag",
  array_contains: "element"
}

/**
 * @since 0.1.0
 * @category models
 */
export class Dimension extends Schema.Class<Dimension>("Dimension")({
  /** For `tag_map` the prefix: leaves add the tag name, `["tags", "<tag name>"]`. */
  path: Schema.Array(Schema.String),
  label: Schema.String,
  type: DimensionType,
  operators: Schema.Array(FilterOperator),
  scopes: Schema.Array(UsageScope),
  description: Schema.String
}) {}

const ALL_SCOPES = UsageScope.literals
const MULTI_ACCOUNT_SCOPES = ["organization", "service_organization"] as const

const dimension = (
  name: string,
  type: DimensionType,
  label: string,
  description: string,
  scopes: ReadonlyArray<UsageScope> = ALL_SCOPES
) =>
  new Dimension({
    path: [name],
    label,
    type,
    operators: OPERATORS[type === "tag_map" ? "string" : type],
    scopes,
    description
  })

/**
 * Every dimension, in the order the catalogue lists them. Each path names a UsageRecord field.
 * @since 0.1.0
 * @category constants
 */
export const CATALOGUE: ReadonlyArray<Dimension> = [
  dimension("warehouse_name", "string", "Warehouse", "Name of the warehouse that ran the query or metered the credits."),
  dimension("warehouse_size", "string", "Warehouse size", "Size of the warehouse, such as X-Small or Large."),
  dimension("user_name", "string", "User", "Data-warehouse user that ran the query."),
  dimension("role_name", "string", "Role", "Role the query ran under."),
  dimension("database_name", "string", "Database", "Current database of the query's session."),
  dimension("schema_name", "string", "Schema", "Current schema of the query's session."),
  dimension("query_tag", "string", "Query tag", "Query tag set by the session or the client."),
  dimension("query_type", "string", "Query type", "Kind of statement, such as SELECT or INSERT."),
  dimension("service_type", "string", "Service type", "Metering service, such as WAREHOUSE_METERING or PIPE."),
  dimension("is_serverless", "boolean", "Serverless", "Usage of serverless features rather than of a warehouse."),
  dimension("execution_time_ms", "number", "Execution time (ms)", "Time the query spent executing."),
  dimension("bytes_scanned", "number", "Bytes scanned", "Bytes the query read from storage."),
  dimension("accessed_databases", "string[]", "Accessed databases", "Databases the query read or wrote."),
  dimension("tags", "tag_map", "Tag", "Value of an object tag, by tag name: path [\"tags\", \"<tag name>\"]."),
  dimension("dbt_project", "string", "dbt project", "dbt project that issued the query."),
  dimension("dbt_model", "string", "dbt model", "dbt model the query built."),
  dimension("account_name", "string", "Account", "Data-warehouse account of the usage.", MULTI_ACCOUNT_SCOPES),
  dimension("region", "string", "Region", "Cloud region of the account.", MULTI_ACCOUNT_SCOPES),
  dimension(
    "dw_organization_name",
    "string",
    "Data-warehouse organization",
    "Data-warehouse organization of the account.",
    ["service_organization"]
  )
]

// A Map, not an object: a path such as ["constructor"] must not find Object.prototype members.
const BY_SCOPE = new Map(
  ALL_SCOPES.map((scope) => {
    const dimensions = CATALOGUE.filter((d) => d.scopes.includes(scope))
    return [scope, { dimensions, byName: new Map(dimensions.map((d) => [d.path[0]!, d])) }] as const
  })
)

const catalogue = (scope: UsageScope) => BY_SCOPE.get(scope)!

/**
 * @since 0.1.0
 * @category utils
 */
export const catalogueFor = (scope: UsageScope): ReadonlyArray<Dimension> => catalogue(scope).dimensions

/**
 * The dimension a leaf's path names, and the type of value found there.
 * @since 0.1.0
 * @category models
 */
export interface ResolvedDimension {
  readonly dimension: Dimension
  readonly valueType: ValueType
}

/**
 * `unknown`: no such dimension at this scope; `tag_name`: a tag path needs exactly one tag name.
 * @since 0.1.0
 * @category models
 */
export type ResolveError = "unknown" | "tag_name"

/**
 * @since 0.1.0
 * @category utils
 */
export const resolve = (
  scope: UsageScope,
  path: ReadonlyArray<string>
): Either.Either<ResolvedDimension, ResolveError> => {
  const dimension = path.length > 0 ? catalogue(scope).byName.get(path[0]!) : undefined
  if (dimension === undefined) return Either.left("unknown")
  if (dimension.type === "tag_map") {
    return path.length === 2 && path[1]!.length > 0
      ? Either.right({ dimension, valueType: "string" })
      : Either.left("tag_name")
  }
  return path.length === 1 ? Either.right({ dimension, valueType: dimension.type }) : Either.left("unknown")
}
