/**
 * Usage group sets, the usage groups inside them, their filter expressions, and the usage
 * records that groups attribute.
 */
import { Schema, SchemaAST } from "effect"
import { OrganizationId, TeamId } from "../shared/Ids.js"
import { storable } from "../shared/StorableText.js"

/**
 * @since 0.1.0
 * @category schemas
 */
export const UsageGroupSetId = Schema.UUID.pipe(Schema.brand("UsageGroupSetId"))
/**
 * @since 0.1.0
 * @category models
 */
export type UsageGroupSetId = typeof UsageGroupSetId.Type

/**
 * @since 0.1.0
 * @category schemas
 */
export const UsageGroupId = Schema.UUID.pipe(Schema.brand("UsageGroupId"))
/**
 * @since 0.1.0
 * @category models
 */
export type UsageGroupId = typeof UsageGroupId.Type

/**
 * Decides which dimensions a set's filters may use. A set without a team has `organization`
 * scope, a set with one `team` scope; `account` and `service_organization` exist for later use.
 * @since 0.1.0
 * @category schemas
 */
export const UsageScope = Schema.Literal("organization", "team", "account", "service_organization")
/**
 * @since 0.1.0
 * @category models
 */
export type UsageScope = typeof UsageScope.Type

/**
 * @since 0.1.0
 * @category utils
 */
export const scopeOf = (set: { readonly team_id: TeamId | null }): UsageScope =>
  set.team_id === null ? "organization" : "team"

// ---------------------------------------------------------------------------------------------
// Filter expressions, in their normalised form (what FilterExpression.validate returns, what is
// stored and what responses carry).

/**
 * @since 0.1.0
 * @category schemas
 */
export const GroupOperator = Schema.Literal("and", "or")
/**
 * @since 0.1.0
 * @category models
 */
export type GroupOperator = typeof GroupOperator.Type

/**
 * @since 0.1.0
 * @category schemas
 */
export const FilterOperator = Schema.Literal(
  "=",
  "!=",
  ">",
  ">=",
  "<",
  "<=",
  "in",
  "not_in",
  "contains",
  "starts_with",
  "ends_with",
  "ilike",
  "is_null",
  "array_contains"
)
/**
 * @since 0.1.0
 * @category models
 */
export type FilterOperator = typeof FilterOperator.Type

/**
 * @since 0.1.0
 * @category constants
 */
export const COMPONENT_TYPE = "Resource Filter"

/**
 * @since 0.1.0
 * @category models
 */
export type FilterScalar = string | number | boolean

/**
 * @since 0.1.0
 * @category schemas
 */
export const FilterValue = Schema.Union(
  Schema.String,
  Schema.Number,
  Schema.Boolean,
  Schema.Array(Schema.String),
  Schema.Array(Schema.Number)
)
/**
 * @since 0.1.0
 * @category models
 */
export type FilterValue = typeof FilterValue.Type

/**
 * @since 0.1.0
 * @category schemas
 */
export const FilterLeaf = Schema.Struct({
  /** `field` is `path` joined by `.`; responses carry it, requests may omit it. */
  field: Schema.Struct({ field: Schema.String, path: Schema.Array(Schema.String) }),
  operator: FilterOperator,
  value: FilterValue,
  not: Schema.Boolean
})
/**
 * @since 0.1.0
 * @category models
 */
export type FilterLeaf = typeof FilterLeaf.Type

/**
 * @since 0.1.0
 * @category models
 */
export interface FilterGroup {
  readonly component_type: typeof COMPONENT_TYPE
  readonly operator: GroupOperator
  readonly not: boolean
  readonly filters: ReadonlyArray<FilterNode>
}
/**
 * @since 0.1.0
 * @category models
 */
export type FilterNode = FilterLeaf | FilterGroup

// The identifier names the recursion in JSON Schema (OpenAPI), which cannot inline it.
/**
 * @since 0.1.0
 * @category schemas
 */
export const FilterGroup: Schema.Schema<FilterGroup> = Schema.Struct({
  component_type: Schema.Literal(COMPONENT_TYPE),
  operator: GroupOperator,
  not: Schema.Boolean,
  filters: Schema.Array(Schema.Union(FilterLeaf, Schema.suspend(() => FilterGroup)))
}).annotations({ identifier: "FilterGroup" })

/**
 * @since 0.1.0
 * @category utils
 */
export const isGroup = (node: FilterNode): node is FilterGroup => "filters" in node

// ---------------------------------------------------------------------------------------------
// The write form of a filter expression, as documented (OpenAPI): the normalised form above with
// what a request may leave out left optional. Documentation only: FilterExpression.validate reads
// requests (against the dimension catalogue of the set's scope, which no schema can know).

/**
 * @since 0.1.0
 * @category schemas
 */
export const FilterLeafInput = Schema.Struct({
  field: Schema.Struct({
    path: Schema.Array(Schema.String).pipe(Schema.minItems(1)).annotations({
      description: "The dimension tested: `[\"warehouse_name\"]`, or `[\"tags\", \"<tag name>\"]` for a tag. " +
        "The dimensions of a set's scope, with their types and operators: GET /v2/usage-dimensions?scope=."
    }),
    field: Schema.optional(Schema.String).annotations({ description: "`path` joined by `.`; read back only, ignored." })
  }),
  operator: FilterOperator,
  value: Schema.optional(FilterValue).annotations({
    description: "One value of the dimension's type for `=`, `!=`, `>`, `>=`, `<`, `<=`; a non-empty array of them " +
      "for `in`/`not_in`; a non-empty string for `contains`, `starts_with`, `ends_with`, `ilike` (`%` any run, `_` " +
      "one character) and `array_contains`; for `is_null`, true (is null, the default) or false."
  }),
  not: Schema.optional(FilterLeaf.fields.not).annotations({ description: "Negates the test. Default false." })
}).annotations({ identifier: "FilterLeafInput", description: "One test of a usage record's dimension." })

/**
 * @since 0.1.0
 * @category models
 */
export interface FilterGroupInput {
  readonly component_type?: typeof COMPONENT_TYPE | undefined
  readonly operator: GroupOperator
  readonly not?: boolean | undefined
  readonly filters: ReadonlyArray<typeof FilterLeafInput.Type | FilterGroupInput>
}

/**
 * @since 0.1.0
 * @category schemas
 */
export const FilterExpressionInput: Schema.Schema<FilterGroupInput> = Schema.Struct({
  component_type: Schema.optional(Schema.Literal(COMPONENT_TYPE)),
  operator: GroupOperator,
  not: Schema.optional(Schema.Boolean).annotations({ description: "Negates the whole group. Default false." }),
  filters: Schema.Array(Schema.Union(FilterLeafInput, Schema.suspend(() => FilterExpressionInput))).pipe(Schema.minItems(1))
}).annotations({
  identifier: "FilterExpressionInput",
  description: "A usage group's filter: a group of tests and nested groups (at most 5 deep, 200 tests in all), " +
    "joined by `and` or `or`. Example: `{\"operator\": \"and\", \"filters\": [{\"field\": {\"path\": " +
    "[\"warehouse_name\"]}, \"operator\": \"=\", \"value\": \"ANALYTICS_WH\"}]}`."
})

/** Any value, documented as `schema`: the request is read by hand, the document still says what it takes. */
const documentedAs = (schema: Schema.Schema.Any) =>
  Schema.Unknown.annotations({ [SchemaAST.SurrogateAnnotationId]: schema.ast })

/**
 * A whole filter expression is a group.
 * @since 0.1.0
 * @category utils
 */
export const FilterExpression = FilterGroup
/**
 * @since 0.1.0
 * @category models
 */
export type FilterExpression = FilterGroup

// ---------------------------------------------------------------------------------------------
// Sets and groups.

const Name = storable(Schema.String.pipe(
  Schema.filter((s) => s.trim().length > 0, { message: () => "must not be empty" }),
  Schema.maxLength(200)
))

/** Unknown fields are an error, not silently dropped: a typo in a patch must not look like success. */
const strict = { parseOptions: { onExcessProperty: "error" } } as const

/**
 * Credits per UTC calendar month; null means no limit.
 * @since 0.1.0
 * @category schemas
 */
export const MonthlyBudget = Schema.NullOr(Schema.Number.pipe(Schema.finite(), Schema.nonNegative()))

/**
 * @since 0.1.0
 * @category models
 */
export class UsageGroupSet extends Schema.Class<UsageGroupSet>("UsageGroupSet")({
  id: UsageGroupSetId,
  organization_id: OrganizationId,
  name: Schema.String,
  order: Schema.NonNegativeInt,
  team_id: Schema.NullOr(TeamId),
  /** v1 calls these `created_at`/`updated_at`, v2 `create_time`/`update_time`. */
  created_at: Schema.DateTimeUtc,
  updated_at: Schema.DateTimeUtc,
  etag: Schema.String
}) {}

/**
 * @since 0.1.0
 * @category models
 */
export class UsageGroup extends Schema.Class<UsageGroup>("UsageGroup")({
  id: UsageGroupId,
  organization_id: OrganizationId,
  usage_group_set_id: UsageGroupSetId,
  /** Read from the owning set, so a renamed set never leaves a stale name here. */
  usage_group_set_name: Schema.String,
  name: Schema.String,
  budget: MonthlyBudget,
  order: Schema.NonNegativeInt,
  /** Responses also carry `filter_expression_json`: FilterExpression.serialize of this. */
  filter_expression: FilterExpression,
  created_at: Schema.DateTimeUtc,
  updated_at: Schema.DateTimeUtc,
  etag: Schema.String
}) {}

// ---------------------------------------------------------------------------------------------
// Write inputs. The filter arrives as `filter_expression` (object) or `filter_expression_json`
// (string), both left unknown here: FilterExpression.fromWriteInput validates them against the
// catalogue of the set's scope, which a schema cannot know.

/**
 * @since 0.1.0
 * @category models
 */
export class CreateUsageGroupSet extends Schema.Class<CreateUsageGroupSet>("CreateUsageGroupSet")(
  Schema.Struct({
    name: Name,
    order: Schema.optionalWith(Schema.NonNegativeInt, { default: () => 0 }),
    team_id: Schema.optionalWith(Schema.NullOr(TeamId), { default: () => null }),
    /** Deprecated by the spec: accepted and ignored. */
    dw_account_uuid: Schema.optional(Schema.NullOr(Schema.String)),
    dw_organization_name: Schema.optional(Schema.NullOr(Schema.String))
  }).annotations(strict)
) {}

const filterInputFields = {
  filter_expression: Schema.optional(documentedAs(FilterExpressionInput)),
  filter_expression_json: Schema.optional(documentedAs(Schema.parseJson(FilterExpressionInput).annotations({
    description: "The same filter as JSON text, for infrastructure-as-code tools. Give this or `filter_expression`, not both."
  })))
}
/**
 * @since 0.1.0
 * @category models
 */
export type FilterInput = Schema.Struct.Type<typeof filterInputFields>

const BOTH_FILTER_FORMS = "give either filter_expression or filter_expression_json, not both"

/**
 * Both keys present is an error even when one of them is null: which one was meant is unclear.
 * @since 0.1.0
 * @category utils
 */
export const notBothFilterForms = (input: FilterInput) =>
  !("filter_expression" in input && "filter_expression_json" in input) ||
  { path: ["filter_expression_json"], message: BOTH_FILTER_FORMS }

/**
 * @since 0.1.0
 * @category models
 */
export class CreateUsageGroup extends Schema.Class<CreateUsageGroup>("CreateUsageGroup")(
  Schema.Struct({
    name: Name,
    order: Schema.optionalWith(Schema.NonNegativeInt, { default: () => 0 }),
    budget: Schema.optionalWith(MonthlyBudget, { default: () => null }),
    ...filterInputFields
  }).annotations(strict).pipe(
    Schema.filter((input) =>
      "filter_expression" in input || "filter_expression_json" in input
        ? notBothFilterForms(input)
        : { path: ["filter_expression"], message: "filter_expression or filter_expression_json is required" }
    )
  )
) {}

/**
 * The fields of a merge patch; the v1 `PUT` adds the group's `id` to them.
 * @since 0.1.0
 * @category utils
 */
export const patchUsageGroupFields = {
  name: Schema.optional(Name),
  order: Schema.optional(Schema.NonNegativeInt),
  budget: Schema.optional(MonthlyBudget),
  ...filterInputFields
}

/**
 * A merge patch: absent fields stay as they are; `budget: null` removes the limit.
 * @since 0.1.0
 * @category models
 */
export class PatchUsageGroup extends Schema.Class<PatchUsageGroup>("PatchUsageGroup")(
  Schema.Struct(patchUsageGroupFields).annotations(strict).pipe(Schema.filter(notBothFilterForms))
) {}

// ---------------------------------------------------------------------------------------------
// Usage records: one query or metering row. Dimensions a row does not know are absent or null.

const TextDimension = Schema.optional(Schema.NullOr(Schema.String))

/**
 * @since 0.1.0
 * @category schemas
 */
export const UsageRecord = Schema.Struct({
  start_time: Schema.Date,
  credits: Schema.Number.pipe(Schema.finite()),
  warehouse_name: TextDimension,
  warehouse_size: TextDimension,
  user_name: TextDimension,
  role_name: TextDimension,
  database_name: TextDimension,
  schema_name: TextDimension,
  query_tag: TextDimension,
  query_type: TextDimension,
  service_type: TextDimension,
  is_serverless: Schema.optional(Schema.NullOr(Schema.Boolean)),
  execution_time_ms: Schema.optional(Schema.NullOr(Schema.Number.pipe(Schema.finite()))),
  bytes_scanned: Schema.optional(Schema.NullOr(Schema.Number.pipe(Schema.finite()))),
  accessed_databases: Schema.optional(Schema.NullOr(Schema.Array(Schema.String))),
  tags: Schema.optional(Schema.NullOr(Schema.Record({ key: Schema.String, value: Schema.String }))),
  dbt_project: TextDimension,
  dbt_model: TextDimension,
  account_name: TextDimension,
  region: TextDimension,
  dw_organization_name: TextDimension
})
/**
 * @since 0.1.0
 * @category models
 */
export type UsageRecord = typeof UsageRecord.Type
