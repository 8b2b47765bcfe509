/**
 * Usage group sets and their groups. Set names are unique per organization through a unique
 * index on `name_key` (core's `setNameKey`); group changes are compare-and-set on the stored etag.
 */
import { Errors, Usage, UsageEditable, UsageRepo } from "@costline/core"
import { Effect, Layer, Option, Schema } from "effect"
import { DbDateTime, isoText, jsonText } from "../Columns.js"
import { RepoContext } from "./RepoContext.js"

const SetRow = Schema.Struct({ ...Usage.UsageGroupSet.fields, created_at: DbDateTime, updated_at: DbDateTime })

const GroupRow = Schema.Struct({
  ...Usage.UsageGroup.fields,
  // Text on both stores (see the migrations): jsonb would reorder the expression's keys.
  filter_expression: Schema.parseJson(Usage.FilterExpression),
  created_at: DbDateTime,
  updated_at: DbDateTime
})

/** What a group change writes; identity, owner and creation time never change. */
const editableColumns = (group: Usage.UsageGroup) => ({
  name: group.name,
  budget: group.budget,
  order: group.order,
  filter_expression: jsonText(group.filter_expression),
  etag: group.etag,
  updated_at: isoText(group.updated_at)
})

export const make = Effect.gen(function*() {
  const { errors, reader, recoverableWrite, sql, write } = yield* RepoContext
  const sets = reader(SetRow, (row) => new Usage.UsageGroupSet(row))
  const groups = reader(GroupRow, (row) => new Usage.UsageGroup(row))

  // The set's name is read through the join, so a group never carries a stale one.
  const selectGroups = sql`
    SELECT g.id, g.organization_id, g.usage_group_set_id, s.name AS usage_group_set_name, g.name, g.budget,
           g."order", g.filter_expression, g.etag, g.created_at, g.updated_at
    FROM usage_groups g JOIN usage_group_sets s ON s.id = g.usage_group_set_id`

  return UsageRepo.UsageGroupsRepo.of({
    insertSet: (set) =>
      recoverableWrite(
        sql`INSERT INTO usage_group_sets ${
          sql.insert({
            id: set.id,
            organization_id: set.organization_id,
            name: set.name,
            name_key: UsageEditable.setNameKey(set.name),
            order: set.order,
            team_id: set.team_id,
            etag: set.etag,
            created_at: isoText(set.created_at),
            updated_at: isoText(set.updated_at)
          })
        }`.pipe(
          Effect.asVoid,
          // UsageGroups words the refusal for callers.
          errors.uniqueAs(() => new Errors.AlreadyExists({ message: "duplicate usage group set name" }))
        )
      ),

    findSet: (organizationId, id) =>
      sets.first(
        sql`SELECT id, organization_id, name, "order", team_id, etag, created_at, updated_at
            FROM usage_group_sets WHERE organization_id = ${organizationId} AND id = ${id}`
      ),

    insertGroup: (group) =>
      write(
        sql`INSERT INTO usage_groups ${
          sql.insert({
            id: group.id,
            organization_id: group.organization_id,
            usage_group_set_id: group.usage_group_set_id,
            created_at: isoText(group.created_at),
            ...editableColumns(group)
          })
        }`.pipe(Effect.asVoid, errors.orUnavailable)
      ),

    findGroup: (organizationId, setId, id) =>
      groups.first(
        sql`${selectGroups}
            WHERE g.organization_id = ${organizationId} AND g.usage_group_set_id = ${setId} AND g.id = ${id}`
      ),

    listGroups: ({ after, limit, organizationId, setId }) => {
      const afterCondition = Option.match(after, {
        onNone: () => sql`1 = 1`,
        onSome: (position) =>
          sql`(g."order", g.created_at, g.id) > (${position.order}, ${isoText(position.created_at)}, ${position.id})`
      })
      const limitClause = Option.match(limit, { onNone: () => sql``, onSome: (n) => sql`LIMIT ${n}` })
      return groups.all(
        sql`${selectGroups}
            WHERE g.organization_id = ${organizationId} AND g.usage_group_set_id = ${setId} AND ${afterCondition}
            ORDER BY g."order", g.created_at, g.id
            ${limitClause}`
      )
    },

    updateGroupIfEtag: (group, expectedEtag) =>
      write(
        sql`UPDATE usage_groups SET ${sql.update(editableColumns(group))}
            WHERE organization_id = ${group.organization_id} AND usage_group_set_id = ${group.usage_group_set_id}
              AND id = ${group.id} AND etag = ${expectedEtag}
            RETURNING id`.pipe(Effect.map((rows) => rows.length > 0), errors.orUnavailable)
      ),

    deleteGroupIfEtag: (organizationId, setId, id, expectedEtag) =>
      write(
        sql`DELETE FROM usage_groups
            WHERE organization_id = ${organizationId} AND usage_group_set_id = ${setId} AND id = ${id}
              AND etag = ${expectedEtag}
            RETURNING id`.pipe(Effect.map((rows) => rows.length > 0), errors.orUnavailable)
      )
  })
})

export const layer = Layer.effect(UsageRepo.UsageGroupsRepo, make)
