/**
 * The names of scope targets, one query per scope type for a whole batch. The tables are fixed
 * here, never taken from the request.
 */
import { RoleScope } from "@costline/core"
import { Effect, Layer, Schema } from "effect"
import { RepoContext } from "./RepoContext.js"

const NameRow = Schema.Struct({ id: Schema.String, name: Schema.String })

/** Tables of the targets that belong to an organization; the organization scope is the tenant row. */
const TABLES: Record<Exclude<RoleScope.InternalScopeType, "organization">, string> = {
  dw_account: "dw_accounts",
  usage_group: "usage_groups"
}

export const make = Effect.gen(function*() {
  const { reader, sql } = yield* RepoContext
  const names = reader(NameRow, (row) => row)

  const lookup = (organizationId: string, type: RoleScope.InternalScopeType, ids: ReadonlyArray<string>) =>
    names.all(
      type === "organization"
        ? sql`SELECT id, name FROM organizations WHERE id = ${organizationId} AND ${sql.in("id", ids)}`
        : sql`SELECT id, name FROM ${sql(TABLES[type])} WHERE organization_id = ${organizationId} AND ${sql.in("id", ids)}`
    ).pipe(Effect.map((rows) => rows.map((row) => [RoleScope.scopeKey({ type, id: row.id }), row.name] as const)))

  return RoleScope.ScopeDirectory.of({
    names: (organizationId, refs) => {
      const idsByType = new Map<RoleScope.InternalScopeType, Set<string>>()
      for (const ref of refs) idsByType.set(ref.type, (idsByType.get(ref.type) ?? new Set()).add(ref.id))
      return Effect.forEach(idsByType, ([type, ids]) => lookup(organizationId, type, [...ids])).pipe(
        Effect.map((found) => new Map(found.flat()))
      )
    }
  })
})

export const layer = Layer.effect(RoleScope.ScopeDirectory, make)
