/** Migration 1400: teams and SSO groups created before it get the ETags clients already hold. */
import { Core, SsoGroups, Teams } from "@costline/core"
import type { Ids, SsoGroup } from "@costline/core"
import { SqliteStore } from "@costline/store-sqlite"
import { SqlClient } from "@effect/sql/SqlClient"
import { expect, it } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { migrations } from "../src/migrations/index.js"

const TEAM = "6f1c2b6e-0000-4000-8000-000000000001" as Ids.TeamId
const GROUP = "6f1c2b6e-0000-4000-8000-000000000002" as SsoGroup.SsoGroupId
const ORG = "acme" as Ids.OrganizationId
const AT = "2025-01-01T00:00:00.000Z"

it.live("existing teams and SSO groups get the ETag core computes for them", () =>
  Effect.gen(function*() {
    const store = yield* Layer.build(Core.layer.pipe(Layer.provideMerge(SqliteStore.layer({ filename: ":memory:", migrate: false }))))
    yield* Effect.gen(function*() {
      const sql = yield* SqlClient
      const [later, earlier] = [
        Object.entries(migrations).filter(([id]) => id >= "1400"),
        Object.entries(migrations).filter(([id]) => id < "1400")
      ]
      for (const [, migration] of earlier) yield* migration
      yield* sql`INSERT INTO organizations (id, name, settings, created_at) VALUES (${ORG}, 'Acme', '{}', ${AT})`
      yield* sql`INSERT INTO teams (id, organization_id, name, is_all_users, default_member_role, created_at, updated_at)
                 VALUES (${TEAM}, ${ORG}, 'Data', 1, 'editor', ${AT}, ${AT})`
      yield* sql`INSERT INTO sso_groups (id, organization_id, name, created_at, updated_at) VALUES (${GROUP}, ${ORG}, 'okta-data', ${AT}, ${AT})`
      for (const [, migration] of later) yield* migration
      const team = yield* (yield* Teams.Teams).get(ORG, TEAM)
      expect(team.etag).toBe(Teams.teamEtag({ name: "Data", is_all_users: true, default_member_role: "editor" }))
      expect((yield* (yield* SsoGroups.SsoGroups).get(ORG, GROUP)).group.etag).toBe(SsoGroups.ssoGroupEtag({ name: "okta-data" }))
    }).pipe(Effect.provide(store))
  }).pipe(Effect.scoped))
