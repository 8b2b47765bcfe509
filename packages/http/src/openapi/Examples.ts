/**
 * The request examples of the documents: what the docs page's "Try it out" fills in and sends.
 * Each is valid as the server checks it, so a first try gets an answer about the data, never a
 * 403 for a made-up tenant or a 422 for `"string"`. The one home of request examples: an example
 * a parameter declares elsewhere is replaced here (response examples stay with the schemas and
 * errors they show).
 *
 * Only what a request must carry has an example: path parameters, required headers and query
 * parameters, and request bodies. Swagger UI sends every example it is given, so an optional
 * filter with an example would quietly narrow every try; the optional `x-request-id` has none, so
 * each try gets its own id.
 */
import { Context } from "effect"
import { type Document, isReference, type MediaType, type Operation, type Parameter, type PathItem } from "./Types.js"

export interface ExampleOptions {
  /** The organization the examples are for: `x-tenant-id`, v1's `{organization_id}`. */
  readonly tenant: string
}

/**
 * `demo`: the organization `costline serve --demo` and `costline seed` create, and the one the
 * examples of this repository mount the API for.
 */
export const DEFAULT_TENANT = "demo"

/** The host's choice of tenant for the examples (`ApiOptions.docsTenant`). */
export class ExampleTenant extends Context.Reference<ExampleTenant>()("@costline/http/ExampleTenant", {
  defaultValue: (): string => DEFAULT_TENANT
}) {}

/** Ids of the right shape (the server makes every id a UUID); ids of nothing, until replaced. */
const ID = {
  team: "0b6f2c1e-8a53-4c2e-9d6a-1f0e4b1c2d3e",
  role: "6c1d9f4a-2b7e-4f03-8e5d-3a9c0b7e1f24",
  ssoGroup: "8b204915-df2d-4378-97e3-61a4c1efd945",
  insight: "fcbc1f0f-5e22-4a81-aff6-8ec8c6b3de0f",
  ticketLink: "3e7a9c2d-5f14-4b8e-a0c6-9d2f7e1b4a53",
  usageGroupSet: "a4d3f1b2-7c9e-4e05-b6a8-2f1c0d9e8b74",
  usageGroup: "5f8e2a1c-3d7b-4c96-9e0f-b1a2c3d4e5f6",
  apiKey: "57c76e0c-1bab-43ac-aeea-b81a63ca0a7d",
  dwAccount: "c2e5b7a9-1d3f-4e6a-8b0c-7f9e1d2a3b4c"
} as const

/** The admin `costline seed` (and `serve --demo`) creates in an organization. */
const adminEmail = (tenant: string) => `admin@${tenant}.example`

/** An ETag of the shape the server sends; a stale one is answered 412, a missing one 428. */
const ETAG = "\"Y1qxT_04uY6U7kWD4ueDEQ\""

type Example = (options: ExampleOptions) => unknown
const always = (value: unknown): Example => () => value

/** By where and what a parameter is: `path:team_id`, `header:x-tenant-id`, `query:month`. */
const PARAMETERS: Readonly<Record<string, Example>> = {
  "header:x-tenant-id": ({ tenant }) => tenant,
  "header:if-match": always(ETAG),
  "path:organization_id": ({ tenant }) => tenant,
  "path:email": ({ tenant }) => adminEmail(tenant),
  "path:team_id": always(ID.team),
  "path:role_id": always(ID.role),
  "path:user_role_id": always(ID.role),
  "path:sso_group_id": always(ID.ssoGroup),
  "path:sso_group_name": always("data-platform-admins"),
  "path:insight_id": always(ID.insight),
  "path:ticket_link_id": always(ID.ticketLink),
  "path:usage_group_set_id": always(ID.usageGroupSet),
  "path:usage_group_id": always(ID.usageGroup),
  "path:api_key_id": always(ID.apiKey),
  "path:dw_account_id": always(ID.dwAccount),
  "path:dw_account_uuid": always(ID.dwAccount),
  "query:month": always("2026-10"),
  "query:item_type": always("insight"),
  "query:item_id": always(ID.insight)
}

/** Usage in the ETL warehouse, or tagged for the data-platform team: the filter language's two leaves. */
const FILTER_EXPRESSION = {
  operator: "or",
  filters: [
    { field: { path: ["warehouse_name"] }, operator: "=", value: "ETL_WH" },
    { field: { path: ["tags", "team"] }, operator: "in", value: ["data-platform"] }
  ]
}

const ROLE_GRANT = { role: "editor", scope: { type: "organization" } }

const QUERY_TEXT = "SELECT * FROM analytics.orders o JOIN analytics.customers c ON o.customer_id = c.id"

/** One day of a warehouse's metering and one query on it, as the account-usage views export them. */
const INGESTION = {
  metering: {
    format: "csv",
    content: "START_TIME,END_TIME,WAREHOUSE_ID,WAREHOUSE_NAME,CREDITS_USED,CREDITS_USED_COMPUTE,CREDITS_USED_CLOUD_SERVICES\n" +
      "2026-10-01T08:00:00Z,2026-10-01T09:00:00Z,42,ETL_WH,1.2,1.1,0.1\n"
  },
  queries: {
    format: "jsonl",
    content: JSON.stringify({
      QUERY_ID: "01b7a2c4-0000-4e2f-0000-00012a3b4c5d",
      QUERY_TEXT,
      QUERY_TYPE: "SELECT",
      DATABASE_NAME: "ANALYTICS",
      SCHEMA_NAME: "PUBLIC",
      USER_NAME: "DBT",
      ROLE_NAME: "TRANSFORMER",
      WAREHOUSE_NAME: "ETL_WH",
      WAREHOUSE_SIZE: "Medium",
      QUERY_TAG: "",
      EXECUTION_STATUS: "SUCCESS",
      START_TIME: "2026-10-01T08:10:00Z",
      END_TIME: "2026-10-01T08:12:00Z",
      TOTAL_ELAPSED_TIME: 120000,
      EXECUTION_TIME: 118000,
      COMPILATION_TIME: 2000,
      QUEUED_PROVISIONING_TIME: 0,
      QUEUED_OVERLOAD_TIME: 0,
      BYTES_SCANNED: 52428800,
      PERCENTAGE_SCANNED_FROM_CACHE: 0,
      BYTES_SPILLED_TO_LOCAL_STORAGE: 0,
      BYTES_SPILLED_TO_REMOTE_STORAGE: 0,
      PARTITIONS_SCANNED: 12,
      PARTITIONS_TOTAL: 40,
      ROWS_PRODUCED: 1000,
      QUERY_PARAMETERIZED_HASH: "8f14e45fceea167a5a36dedd4bea2543"
    }) + "\n"
  }
}

/** By operation id (the same in the typed client): the body "Try it out" starts from. */
const BODIES: Readonly<Record<string, Example>> = {
  "teams.createTeam": always({ name: "Data platform", is_all_users: false, default_member_role: "viewer" }),
  "teams.updateTeam": always({ name: "Data platform", default_member_role: "editor" }),
  "teams.addTeamMember": ({ tenant }) => ({ identifier: adminEmail(tenant), role: "editor" }),
  "teams.grantTeamRole": always(ROLE_GRANT),
  "ssoGroups.createSsoGroup": always({ name: "data-platform-admins", roles: [ROLE_GRANT] }),
  "ssoGroups.updateSsoGroup": always({ name: "data-platform-leads" }),
  "userRoles.grantUserRole": always(ROLE_GRANT),
  "analysis.analyzeQuery": always({
    query_text: QUERY_TEXT,
    dialect: "snowflake",
    statistics: { execution_time_ms: 118000, bytes_scanned: 52428800, partitions_scanned: 12, partitions_total: 40 }
  }),
  "analysis.generateCodeChange": always({
    query_text: "SELECT * FROM analytics.orders WHERE order_date >= '2026-10-01'",
    insight_type: "select_star",
    dialect: "snowflake",
    context: { tables: { "analytics.orders": ["order_id", "customer_id", "order_date", "amount"] } }
  }),
  "insights.queryInsights": always({
    dimensions: ["insight_type"],
    measures: ["count", "potential_savings_sum"],
    filters: { status__in: ["open", "in_progress"] },
    order_by: [{ field: "potential_savings_sum", direction: "desc" }],
    limit: 10
  }),
  "insights.updateInsight": ({ tenant }) => ({ status: "in_progress", assignee: adminEmail(tenant) }),
  "ticketLinks.createTicketLink": always({
    item_type: "insight",
    item_id: ID.insight,
    provider: "jira",
    ticket_id: "COST-142",
    ticket_url: "https://example.atlassian.net/browse/COST-142"
  }),
  "dwAccounts.updateDwAccount": always({ name: "Snowflake production" }),
  "usageGroups.createUsageGroupSet": always({ name: "Cost centers", order: 0 }),
  "usageGroups.createUsageGroup": always({ name: "ETL", order: 1, budget: 250, filter_expression: FILTER_EXPRESSION }),
  "usageGroups.updateUsageGroup": always({ budget: 300, filter_expression: FILTER_EXPRESSION }),
  "usageGroups.raiseBudgetAlerts": always({ month: "2026-10" }),
  "apiKeys.createApiKey": always({
    name: "audit-exporter",
    access: "read_only",
    scopes: ["audit_logs:read"],
    expires_at: "2027-01-01T00:00:00Z"
  }),
  "intelligence.ingestDw": always(INGESTION),
  "invitations.acceptInvitation": always({ token: "cli_4fJ2kQ9xTmB7vR1nW8cY3hL6pZ0sDaE5uG2iK7", email: "new.member@example.com" }),
  "teamsV1.createTeam": always({ name: "Data platform", is_all_users: false, default_member_role: "viewer" }),
  "teamsV1.updateTeam": always({ name: "Data platform", default_member_role: "editor" }),
  "teamsV1.addTeamMember": ({ tenant }) => ({ identifier: adminEmail(tenant), role: "editor" }),
  "ssoGroupsV1.createSsoGroupMapping": always({ sso_group_name: "data-platform-admins", roles: [ROLE_GRANT] }),
  "ssoGroupsV1.renameSsoGroupMapping": always({ new_sso_group_name: "data-platform-leads" }),
  "dwAccountsV1.putCredentials": always({
    private_key: "-----BEGIN PRIVATE KEY-----\nMC4CAQAwBQYDK2VwBCIEIJ+DYvh6SEqVTm50DFtMDoQikTmiCqirVv9mWG9qfSnF\n-----END PRIVATE KEY-----\n",
    private_key_passphrase: null
  }),
  "usageGroupsV1.createUsageGroupSet": always({ name: "Cost centers", order: 0 }),
  "usageGroupsV1.putUsageGroup": always({ name: "ETL", order: 1, budget: 250, filter_expression: FILTER_EXPRESSION })
}

/** Required by the server whether or not the document can say so (it may also be a security scheme). */
const ALWAYS_SENT = new Set(["header:x-tenant-id"])

/** The parameter with its example, or without one when it is not one a request must carry. */
const withExample = (parameter: Parameter, options: ExampleOptions): Parameter => {
  const { example: _declared, ...rest } = parameter
  const key = `${parameter.in}:${parameter.name.toLowerCase()}`
  const example = PARAMETERS[key]
  const sent = parameter.required || ALWAYS_SENT.has(key)
  return sent && example !== undefined ? { ...rest, example: example(options) } : rest
}

const withBodyExample = (operation: Operation, options: ExampleOptions): Operation => {
  const example = BODIES[operation.operationId]
  const parameters = operation.parameters.map((parameter) =>
    isReference(parameter) ? parameter : withExample(parameter, options)
  )
  if (operation.requestBody === undefined || example === undefined) return { ...operation, parameters }
  const value = example(options)
  const content = Object.fromEntries(
    Object.entries(operation.requestBody.content).map(([type, media]): [string, MediaType] => [
      type,
      { ...media, example: value }
    ])
  )
  return { ...operation, parameters, requestBody: { ...operation.requestBody, content } }
}

/** The document with the request examples above, and no other request example. */
export const apply = (document: Document, options: ExampleOptions): Document => ({
  ...document,
  paths: Object.fromEntries(
    Object.entries(document.paths).map(([path, item]): [string, PathItem] => [
      path,
      Object.fromEntries(Object.entries(item).map(([method, operation]) => [method, withBodyExample(operation, options)]))
    ])
  ),
  components: {
    ...document.components,
    ...(document.components.parameters === undefined ? {} : {
      parameters: Object.fromEntries(
        Object.entries(document.components.parameters).map(([name, parameter]) => [name, withExample(parameter, options)])
      )
    })
  }
})
