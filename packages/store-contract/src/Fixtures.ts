/** Helpers of the repository contract: isolated tenants, actors, and draining the audit export. */
import { expect } from "@effect/vitest"
import { type Context, Effect, Either, type Layer } from "effect"
import { randomUUID } from "node:crypto"
import { Actor, AuditLog, Authorization, Organizations, Precondition } from "@costline/core"
import type { Audit, Core, Identity, Ids } from "@costline/core"

/** What a contract test can use: every core service and every repository of the store. */
export type ContractServices = Layer.Layer.Success<typeof Core.layer> | Core.Repositories

/** A new organization per test, so tests share one database without seeing each other's rows. */
export const freshOrganization = Effect.flatMap(
  Organizations.Organizations,
  (organizations) => organizations.create({ id: `org-${randomUUID()}`, name: "Contract test" })
).pipe(Effect.orDie)

/** The precondition an edge makes of a well-formed `If-Match` header. */
export const ifMatch = (header: string): Precondition.IfMatch => Either.getOrThrow(Precondition.required(header, "it"))

export const userActor = (email: string) => new Actor.Actor({ changedBy: email, changedByType: "user", requestId: null })

/** A signed-in user as an actor: named like `userActor`, and bounded by `roles` (held at organization scope). */
export const memberActor = (organizationId: Ids.OrganizationId, email: string, roles: ReadonlyArray<Identity.Role>, userId: Ids.UserId = randomUUID() as Ids.UserId) =>
  Authorization.actorOf({ _tag: "User", organizationId, userId, email, sessionId: randomUUID() as Ids.SessionId, roles }, null)

/** An API key as an actor, bounded by its access and scopes. */
export const keyActor = (organizationId: Ids.OrganizationId, access: Identity.Access, scopes: ReadonlyArray<Identity.ApiKeyScope>) =>
  Authorization.actorOf({ _tag: "ApiKey", organizationId, keyId: randomUUID() as Ids.ApiKeyId, name: `${access}-key`, access, scopes }, null)

/** The result of reading the export to its end. */
export interface Drained {
  readonly records: ReadonlyArray<Audit.AuditRecord>
  /** The last non-null page token: where a poller resumes. */
  readonly resumeToken: string | undefined
  readonly pages: number
}

/**
 * Follows page tokens until a page comes back empty, as a poller does. Checks the token rule on
 * the way: a page with records has a token, an empty page has none.
 */
export const drainExport = (
  organizationId: Ids.OrganizationId,
  query: Partial<Omit<AuditLog.ExportQuery, "pageToken">> & { readonly from?: string | undefined } = {}
) =>
  Effect.gen(function*() {
    const audit = yield* AuditLog.AuditLog
    const records: Array<Audit.AuditRecord> = []
    let token = query.from
    let pages = 0
    for (;;) {
      const page = yield* audit.export(organizationId, {
        filters: query.filters ?? {},
        order: query.order ?? "asc",
        maxResults: query.maxResults ?? 50,
        pageToken: token
      })
      if (page.items.length === 0) {
        expect(page.page_token).toBeNull()
        return { records, resumeToken: token, pages } satisfies Drained
      }
      expect(page.page_token).not.toBeNull()
      records.push(...page.items)
      token = page.page_token!
      pages += 1
    }
  })

/** The ids of records, for comparing what was delivered with what was written. */
export const ids = (records: ReadonlyArray<{ readonly id: string }>) => records.map((record) => record.id)

/** Appends one record about a host's dashboard, as a host application auditing its own change. */
export const recordChange = (organizationId: Ids.OrganizationId, recordId: string) =>
  Effect.flatMap(AuditLog.AuditLog, (audit) =>
    audit.record(Actor.Actor.system(), organizationId, {
      target: { resource: "dashboards" },
      table_name: "dashboards",
      record_id: recordId,
      operation: "update"
    }))

/**
 * Two instances over one store (two servers, or the CLI beside a server) sign page tokens alike:
 * a poller may resume on the other instance.
 */
export const expectPortablePageTokens = (
  first: Context.Context<ContractServices>,
  second: Context.Context<ContractServices>
) =>
  Effect.gen(function*() {
    const organization = yield* freshOrganization
    yield* recordChange(organization.id, "a")
    yield* recordChange(organization.id, "b")
    const audit = yield* AuditLog.AuditLog
    const page = yield* audit.export(organization.id, { filters: {}, order: "asc", pageToken: undefined, maxResults: 1 })
    const next = yield* Effect.flatMap(AuditLog.AuditLog, (other) =>
      other.export(organization.id, { filters: {}, order: "asc", pageToken: page.page_token!, maxResults: 5 })).pipe(
        Effect.provide(second)
      )
    expect(next.items.map((record) => record.record_id)).toEqual(["b"])
  }).pipe(Effect.provide(first))
