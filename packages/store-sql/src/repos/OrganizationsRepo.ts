/** Organizations (tenants) on SQL. */
import { Errors, Identity, IdentityRepo } from "@costline/core"
import { Effect, Layer, Schema } from "effect"
import { DbDateTime, dbJson, isoText, jsonText } from "../Columns.js"
import { RepoContext } from "./RepoContext.js"

const OrganizationRow = Schema.Struct({
  ...Identity.Organization.fields,
  settings: dbJson(Identity.Organization.fields.settings),
  created_at: DbDateTime
})

export const make = Effect.gen(function*() {
  const { errors, reader, recoverableWrite, sql, write } = yield* RepoContext
  const organizations = reader(OrganizationRow, (row) => new Identity.Organization(row))

  return IdentityRepo.OrganizationsRepo.of({
    insert: (organization) =>
      recoverableWrite(
        sql`INSERT INTO organizations ${
          sql.insert({
            id: organization.id,
            name: organization.name,
            settings: jsonText(organization.settings),
            created_at: isoText(organization.created_at)
          })
        }`.pipe(errors.uniqueAs(() => new Errors.AlreadyExists({ message: `organization ${organization.id} already exists` })))
      ),
    findById: (id) => organizations.first(sql`SELECT id, name, settings, created_at FROM organizations WHERE id = ${id}`),
    list: organizations.all(sql`SELECT id, name, settings, created_at FROM organizations ORDER BY id`),
    updateSettings: (id, settings) =>
      write(
        sql`UPDATE organizations SET settings = ${jsonText(settings)} WHERE id = ${id}`.pipe(
          Effect.asVoid,
          errors.orUnavailable
        )
      )
  })
})

export const layer = Layer.effect(IdentityRepo.OrganizationsRepo, make)
