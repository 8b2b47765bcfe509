/** A client for the usage group routes and the filters the tests send. */
import { Effect } from "effect"
import { call, type CallOptions, type seedTenant } from "./TestServer.js"

export type Tenant = Effect.Effect.Success<typeof seedTenant>

/** A filter as clients write it: `<dimension> = <value>`. */
export const equals = (dimension: string, value: unknown) => ({
  operator: "and",
  filters: [{ field: { path: [dimension] }, operator: "=", value }]
})

export const SETS = "/v2/usage-group-sets"

/** v2 calls as the tenant's admin key, unless `options` says otherwise. */
export const v2 = (tenant: Tenant) => (method: string, path: string, options: CallOptions = {}) =>
  call(method, path, { token: tenant.adminKey, tenant: tenant.id, ...options })

/** v1 calls under `/api/{organization_id}` as the tenant's admin key. */
export const v1 = (tenant: Tenant) => (method: string, path: string, options: CallOptions = {}) =>
  call(method, `/api/${tenant.id}${path}`, { token: tenant.adminKey, ...options })

/** Creates a set through v2 and answers its body. */
export const newSet = (tenant: Tenant, json: Record<string, unknown> = { name: "Cost centers" }) =>
  Effect.map(v2(tenant)("POST", SETS, { json }), (reply) => {
    if (reply.status !== 201) throw new Error(`set not created: ${reply.status} ${reply.text}`)
    return reply.body
  })

/** Creates a group (filtering warehouse ETL unless told otherwise) through v2 and answers its body. */
export const newGroup = (tenant: Tenant, setId: string, json: Record<string, unknown> = {}) =>
  Effect.map(
    v2(tenant)("POST", `${SETS}/${setId}/usage-groups`, {
      json: { name: "ETL", filter_expression: equals("warehouse_name", "ETL"), ...json }
    }),
    (reply) => {
      if (reply.status !== 201) throw new Error(`group not created: ${reply.status} ${reply.text}`)
      return reply.body
    }
  )

/** The tenant's newest `usage_group_sets` audit records, newest first. */
export const usageAudit = (tenant: Tenant, max = 5) =>
  Effect.map(
    v2(tenant)("GET", `/v2/audit-logs?resource__in=usage_group_sets&sort_order=desc&max_results=${max}`),
    (reply) => reply.body.items
  )
