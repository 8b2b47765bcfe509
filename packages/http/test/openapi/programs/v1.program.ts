/**
 * The same for the deprecated v1 document (`/api/openapi.json`, types in `./v1.ts`): create a
 * usage group set, replace a group's filter with a nested expression as JSON text, read the set
 * with its groups.
 */
import createClient from "openapi-fetch"
import type { paths } from "./v1.js"

const required = <A>(what: string, result: { readonly data?: A; readonly response: Response }): A => {
  if (result.data === undefined) throw new Error(`${what}: HTTP ${result.response.status}`)
  return result.data
}

export const run = async (baseUrl: string, token: string, organization: string, setId: string, groupId: string) => {
  const client = createClient<paths>({ baseUrl, headers: { authorization: `Bearer ${token}` } })
  const path = { organization_id: organization }

  const created = required("create set", await client.POST("/api/{organization_id}/usage-group-sets", {
    params: { path },
    body: { name: "Teams (v1)" }
  }))

  const filter = {
    operator: "and",
    filters: [
      { field: { path: ["database_name"] }, operator: "ilike", value: "prod%" },
      { operator: "or", filters: [{ field: { path: ["execution_time_ms"] }, operator: ">", value: 60000 }] }
    ]
  }
  const replaced = required("replace group", await client.PUT(
    "/api/{organization_id}/usage-group-sets/{usage_group_set_id}/usage-groups/{usage_group_id}",
    {
      params: { path: { ...path, usage_group_set_id: setId, usage_group_id: groupId } },
      body: { name: "ETL (v1)", filter_expression_json: JSON.stringify(filter) }
    }
  ))

  const read = required("read set", await client.GET("/api/{organization_id}/usage-group-sets/{usage_group_set_id}", {
    params: { path: { ...path, usage_group_set_id: setId } }
  }))
  const createdAt: string = read.created_at

  return { created: created.name, replaced: replaced.filter_expression, groups: read.usage_groups.map((group) => group.name), createdAt }
}
