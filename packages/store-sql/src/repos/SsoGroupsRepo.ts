/** SSO group mappings; the name is unique per organization, compared exactly. */
import { Errors, SsoGroup, SsoGroupsRepo } from "@costline/core"
import { Effect, Layer, Schema } from "effect"
import { DbDateTime, isoText } from "../Columns.js"
import { afterPosition, makeCount, windowOrder } from "./Listing.js"
import { RepoContext } from "./RepoContext.js"

const SsoGroupRow = Schema.Struct({ ...SsoGroup.SsoGroup.fields, created_at: DbDateTime, updated_at: DbDateTime })

export const make = Effect.gen(function*() {
  const context = yield* RepoContext
  const { errors, reader, recoverableWrite, sql } = context
  const groups = reader(SsoGroupRow, (row) => new SsoGroup.SsoGroup(row))
  const count = makeCount(context)
  const columns = sql.literal("id, organization_id, name, created_at, updated_at, etag")
  const nameTaken = (name: string) => () => new Errors.AlreadyExists({ message: `the SSO group '${name}' is already mapped` })

  return SsoGroupsRepo.SsoGroupsRepo.of({
    insert: (group) =>
      recoverableWrite(
        sql`INSERT INTO sso_groups ${
          sql.insert({
            id: group.id,
            organization_id: group.organization_id,
            name: group.name,
            created_at: isoText(group.created_at),
            updated_at: isoText(group.updated_at),
            etag: group.etag
          })
        }`.pipe(Effect.asVoid, errors.uniqueAs(nameTaken(group.name)))
      ),
    findById: (organizationId, id) =>
      groups.first(sql`SELECT ${columns} FROM sso_groups WHERE organization_id = ${organizationId} AND id = ${id}`),
    findByName: (organizationId, name) =>
      groups.first(sql`SELECT ${columns} FROM sso_groups WHERE organization_id = ${organizationId} AND name = ${name}`),
    update: (group, expected) =>
      recoverableWrite(
        sql`UPDATE sso_groups SET name = ${group.name}, updated_at = ${isoText(group.updated_at)}, etag = ${group.etag}
            WHERE organization_id = ${group.organization_id} AND id = ${group.id} AND etag = ${expected.etag}
            RETURNING id`.pipe(Effect.map((rows) => rows.length > 0), errors.uniqueAs(nameTaken(group.name)))
      ),
    list: (organizationId, window) =>
      groups.all(
        sql`SELECT ${columns} FROM sso_groups
            WHERE ${sql.and([sql`organization_id = ${organizationId}`, ...afterPosition(sql, window, "created_at", "id")])}
            ${windowOrder(sql, window, "created_at", "id")}`
      ),
    count: (organizationId) => count(sql`SELECT count(*) AS count FROM sso_groups WHERE organization_id = ${organizationId}`)
  })
})

export const layer = Layer.effect(SsoGroupsRepo.SsoGroupsRepo, make)
