/** Organizations (tenants). Created by operators (CLI, seed, host apps), not through the API. */
import { Context, DateTime, Effect, Layer, Schema } from "effect"
import { AuditLog } from "../audit/AuditLog.js"
import type { Actor } from "../shared/Actor.js"
import { type AlreadyExists, NotFound, orNotFound, type StoreUnavailable, ValidationFailed } from "../shared/Errors.js"
import { OrganizationId } from "../shared/Ids.js"
import { Transactor } from "../shared/Transactor.js"
import { Organization, OrganizationAudit } from "./Domain.js"
import { OrganizationsRepo } from "./Repo.js"

const decodeId = Schema.decodeUnknownEither(OrganizationId)

/**
 * @since 0.1.0
 * @category tags
 */
export class Organizations extends Context.Tag("@costline/core/Organizations")<
  Organizations,
  {
    readonly create: (input: {
      readonly id: string
      readonly name: string
    }) => Effect.Effect<Organization, ValidationFailed | AlreadyExists | StoreUnavailable>
    readonly get: (id: OrganizationId) => Effect.Effect<Organization, NotFound | StoreUnavailable>
    /** Every organization, by id. */
    readonly list: Effect.Effect<ReadonlyArray<Organization>, StoreUnavailable>
    /** Merges settings (trial end date, warehouse size, features, ...) and audits an `organization` event. */
    readonly updateSettings: (
      actor: Actor,
      id: OrganizationId,
      patch: Record<string, unknown>
    ) => Effect.Effect<Organization, NotFound | ValidationFailed | StoreUnavailable>
  }
>() {}

/**
 * @since 0.1.0
 * @category constructors
 */
export const make = Effect.gen(function*() {
  const repo = yield* OrganizationsRepo
  const audit = yield* AuditLog
  const tx = yield* Transactor

  const get = (id: OrganizationId) =>
    repo.findById(id).pipe(orNotFound("organization", id))

  return Organizations.of({
    create: (input) =>
      Effect.gen(function*() {
        const id = decodeId(input.id)
        if (id._tag === "Left" || !/^[A-Za-z0-9][A-Za-z0-9_.-]*$/.test(input.id)) {
          return yield* ValidationFailed.single(
            "id",
            "invalid",
            "organization id must be 1-128 letters, digits, '.', '_' or '-'"
          )
        }
        const organization = new Organization({
          id: id.right,
          name: input.name,
          settings: {},
          created_at: yield* DateTime.now
        })
        yield* repo.insert(organization)
        return organization
      }),
    get,
    list: repo.list,
    updateSettings: (actor, id, patch) =>
      tx.withTransaction(Effect.gen(function*() {
        const before = yield* get(id)
        const settings = { ...before.settings, ...patch }
        yield* repo.updateSettings(id, settings)
        const after = new Organization({ ...before, settings })
        yield* audit.record(actor, id, OrganizationAudit.updated(before, after))
        return after
      }))
  })
})

/**
 * @since 0.1.0
 * @category layers
 */
export const layer = Layer.effect(Organizations, make)
