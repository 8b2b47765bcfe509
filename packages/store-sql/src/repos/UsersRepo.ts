/** Members of an organization; the email is unique per organization, ignoring case. */
import { Errors, Identity, IdentityRepo } from "@costline/core"
import { Effect, Layer, Schema } from "effect"
import { DbDateTime, isoText } from "../Columns.js"
import { afterPosition, makeCount, windowOrder } from "./Listing.js"
import { RepoContext } from "./RepoContext.js"

const UserRow = Schema.Struct({ ...Identity.User.fields, created_at: DbDateTime })

export const make = Effect.gen(function*() {
  const context = yield* RepoContext
  const { errors, reader, recoverableWrite, sql, write } = context
  const count = makeCount(context)
  const users = reader(UserRow, (row) => new Identity.User(row))
  const columns = sql.literal("id, organization_id, email, created_at")

  return IdentityRepo.UsersRepo.of({
    insert: (user) =>
      recoverableWrite(
        sql`INSERT INTO users ${
          sql.insert({
            id: user.id,
            organization_id: user.organization_id,
            email: user.email,
            created_at: isoText(user.created_at)
          })
        }`.pipe(errors.uniqueAs(() => new Errors.AlreadyExists({ message: `user ${user.email} already exists` })))
      ),
    // lower(email) on both sides: the comparison the unique index (organization_id, lower(email)) serves.
    findByEmail: (organizationId, email) =>
      users.first(
        sql`SELECT ${columns} FROM users WHERE organization_id = ${organizationId} AND lower(email) = lower(${email})`
      ),
    findById: (organizationId, id) =>
      users.first(sql`SELECT ${columns} FROM users WHERE organization_id = ${organizationId} AND id = ${id}`),
    delete: (organizationId, id) =>
      write(
        sql`DELETE FROM users WHERE organization_id = ${organizationId} AND id = ${id} RETURNING id`.pipe(
          Effect.map((rows) => rows.length > 0),
          errors.orUnavailable
        )
      ),
    list: (organizationId, window) =>
      users.all(
        sql`SELECT ${columns} FROM users
            WHERE ${sql.and([sql`organization_id = ${organizationId}`, ...afterPosition(sql, window, "created_at", "id")])}
            ${windowOrder(sql, window, "created_at", "id")}`
      ),
    count: (organizationId) => count(sql`SELECT count(*) AS count FROM users WHERE organization_id = ${organizationId}`)
  })
})

export const layer = Layer.effect(IdentityRepo.UsersRepo, make)
