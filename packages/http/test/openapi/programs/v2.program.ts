/**
 * An integrator's program on the client openapi-typescript generates from `/v2/openapi.json`
 * (types in `./v2.ts`, calls through openapi-fetch): list insights, update one with `If-Match`,
 * create a usage group with a nested filter expression, poll the audit log. Type-checked with
 * tsc and run against the server by generated-client.test.ts; the `@ts-expect-error` lines
 * prove what the types refuse.
 */
import createClient from "openapi-fetch"
import type { components, paths } from "./v2.js"

type FilterExpression = components["schemas"]["FilterExpressionInput"]

const required = <A>(what: string, result: { readonly data?: A; readonly response: Response }): A => {
  if (result.data === undefined) throw new Error(`${what}: HTTP ${result.response.status}`)
  return result.data
}

export const run = async (baseUrl: string, token: string, tenant: string) => {
  // The credential and the tenant are set once: no call repeats `x-tenant-id`.
  const client = createClient<paths>({ baseUrl, headers: { authorization: `Bearer ${token}`, "x-tenant-id": tenant } })

  const insights = required("list insights", await client.GET("/v2/insights", { params: { query: { status__in: ["open"] } } }))
  const insight = insights.items[0]
  if (insight === undefined) throw new Error("no open insight")

  // @ts-expect-error If-Match is required (the server answers 428 without it).
  const withoutIfMatch = await client.PATCH("/v2/insights/{insight_id}", { params: { path: { insight_id: insight.id } }, body: { status: "in_progress" } })

  const patched = required("update insight", await client.PATCH("/v2/insights/{insight_id}", {
    params: { path: { insight_id: insight.id }, header: { "if-match": insight.etag } },
    body: { status: "in_progress", assignee: "ana@example.com" }
  }))
  const assignee: string | null = patched.assignee
  const updated: string = patched.update_time

  const filter: FilterExpression = {
    operator: "or",
    filters: [
      { field: { path: ["warehouse_name"] }, operator: "=", value: "ETL_WH" },
      {
        operator: "and",
        not: true,
        filters: [
          { field: { path: ["warehouse_size"] }, operator: "in", value: ["Large", "X-Large"] },
          { field: { path: ["tags", "team"] }, operator: "starts_with", value: "data" }
        ]
      }
    ]
  }
  // @ts-expect-error A group joins its filters with `and` or `or`, nothing else.
  const unknownOperator: FilterExpression = { operator: "xor", filters: [] }

  const set = required("create set", await client.POST("/v2/usage-group-sets", { body: { name: "Warehouses" } }))
  const group = required("create group", await client.POST("/v2/usage-group-sets/{usage_group_set_id}/usage-groups", {
    params: { path: { usage_group_set_id: set.id } },
    body: { name: "ETL", budget: 250, filter_expression: filter }
  }))

  // Polling the audit log: every page after the last token, until a page comes back empty.
  const audited: Array<string> = []
  let pageToken: string | undefined
  for (;;) {
    const page = required("export audit logs", await client.GET("/v2/audit-logs", {
      params: { query: { max_results: 2, ...(pageToken === undefined ? {} : { page_token: pageToken }) } }
    }))
    if (page.items.length === 0 || page.page_token === null) break
    audited.push(...page.items.map((record) => record.record_id ?? ""))
    pageToken = page.page_token
  }

  return {
    withoutIfMatch: withoutIfMatch.response.status,
    patched: { status: patched.status, assignee, updated },
    group: { id: group.id, setId: set.id, filter: group.filter_expression },
    audited,
    unknownOperator
  }
}
