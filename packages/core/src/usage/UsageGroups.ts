/**
 * The usage groups service: sets, and the groups inside them. Every change appends its
 * `usage_group_sets` audit record (table `usage_group_sets` or `usage_groups`) in the same
 * transaction.
 */
import { Context, DateTime, Effect, Layer, Option, Schema } from "effect"
import { AuditLog } from "../audit/AuditLog.js"
import type { Actor } from "../shared/Actor.js"
import { conditionalWrite, stale, written } from "../shared/internal/ConditionalWrite.js"
import {
  AlreadyExists,
  type Conflict,
  type InvalidPageToken,
  NotFound,
  type StoreUnavailable,
  ValidationFailed,
  orNotFound
} from "../shared/Errors.js"
import { newId, type OrganizationId } from "../shared/Ids.js"
import { type KeysetList, type KeysetRequest, ListCursors, type Page } from "../shared/Listing.js"
import type * as Precondition from "../shared/Precondition.js"
import { Transactor } from "../shared/Transactor.js"
import { TeamsRepo } from "../teams/Repo.js"
import {
  type CreateUsageGroup,
  type CreateUsageGroupSet,
  type PatchUsageGroup,
  scopeOf,
  UsageGroup,
  UsageGroupId,
  UsageGroupSet,
  type UsageGroupSetId
} from "./Domain.js"
import { applyPatch, groupEtag, setEtag, UsageGroupAudit, UsageGroupSetAudit } from "./Editable.js"
import * as FilterExpression from "./FilterExpression.js"
import { type GroupPosition, UsageGroupsRepo } from "./Repo.js"

type Io<A, E> = Effect.Effect<A, E | StoreUnavailable>

/**
 * @since 0.1.0
 * @category tags
 */
export class UsageGroups extends Context.Tag("@costline/core/UsageGroups")<
  UsageGroups,
  {
    /** `team_id` must name a team of the organization; a name already taken → AlreadyExists. */
    readonly createSet: (
      actor: Actor,
      organizationId: OrganizationId,
      input: CreateUsageGroupSet
    ) => Io<UsageGroupSet, AlreadyExists | ValidationFailed>
    readonly getSet: (organizationId: OrganizationId, id: UsageGroupSetId) => Io<UsageGroupSet, NotFound>
    readonly getGroup: (
      organizationId: OrganizationId,
      setId: UsageGroupSetId,
      id: UsageGroupId
    ) => Io<UsageGroup, NotFound>
    /** A page of the set's groups in precedence order; `page_token` is null on the last page. */
    readonly listGroups: (
      organizationId: OrganizationId,
      setId: UsageGroupSetId,
      request: KeysetRequest
    ) => Io<Page<UsageGroup>, NotFound | InvalidPageToken | ValidationFailed>
    /** Every group of the set, in precedence order. */
    readonly allGroups: (organizationId: OrganizationId, setId: UsageGroupSetId) => Io<ReadonlyArray<UsageGroup>, NotFound>
    /** The filter is validated against the catalogue of the set's scope. */
    readonly createGroup: (
      actor: Actor,
      organizationId: OrganizationId,
      setId: UsageGroupSetId,
      input: CreateUsageGroup
    ) => Io<UsageGroup, NotFound | ValidationFailed>
    /**
     * A merge patch. Under an `If-Match`, the change is made only while the group's ETag matches
     * it (else PreconditionFailed).
     */
    readonly updateGroup: <P extends Precondition.Precondition>(
      actor: Actor,
      organizationId: OrganizationId,
      setId: UsageGroupSetId,
      id: UsageGroupId,
      patch: PatchUsageGroup,
      precondition: P
    ) => Io<UsageGroup, NotFound | ValidationFailed | Precondition.Failed<P> | Conflict>
    readonly deleteGroup: <P extends Precondition.Precondition>(
      actor: Actor,
      organizationId: OrganizationId,
      setId: UsageGroupSetId,
      id: UsageGroupId,
      precondition: P
    ) => Io<void, NotFound | Precondition.Failed<P> | Conflict>
  }
>() {}

/** `[order, created_at in epoch milliseconds, id]`: the precedence key of a page's last group. */
const GroupPositionSchema: Schema.Schema<GroupPosition, string> = Schema.transform(
  Schema.parseJson(Schema.Tuple(Schema.NonNegativeInt, Schema.compose(Schema.Int, Schema.DateTimeUtcFromNumber), UsageGroupId)),
  Schema.Struct({ order: Schema.Number, created_at: Schema.DateTimeUtcFromSelf, id: Schema.typeSchema(UsageGroupId) }),
  {
    strict: true,
    decode: ([order, created_at, id]) => ({ order, created_at, id }),
    encode: ({ created_at, id, order }) => [order, created_at, id] as const
  }
)

/**
 * A set's groups in precedence order, as their page tokens see them.
 * @since 0.1.0
 * @category utils
 */
export const groupList = (setId: UsageGroupSetId): KeysetList<UsageGroup, GroupPosition> => ({
  binding: `usage_groups:${setId}`,
  position: GroupPositionSchema,
  positionOf: (group) => ({ order: group.order, created_at: group.created_at, id: group.id })
})

/**
 * @since 0.1.0
 * @category constructors
 */
export const make = Effect.gen(function*() {
  const repo = yield* UsageGroupsRepo
  const teams = yield* TeamsRepo
  const cursors = yield* ListCursors
  const audit = yield* AuditLog
  const tx = yield* Transactor

  const getSet = (organizationId: OrganizationId, id: UsageGroupSetId) =>
    repo.findSet(organizationId, id).pipe(orNotFound("usage group set", id))

  const getGroup = (organizationId: OrganizationId, setId: UsageGroupSetId, id: UsageGroupId) =>
    repo.findGroup(organizationId, setId, id).pipe(orNotFound("usage group", id))

  const requireTeam = (organizationId: OrganizationId, input: CreateUsageGroupSet) =>
    input.team_id === null
      ? Effect.void
      : teams.findById(organizationId, input.team_id).pipe(
        Effect.flatMap(Option.match({
          onNone: () =>
            ValidationFailed.single("team_id", "not_found", `no team ${input.team_id} in this organization`),
          onSome: () => Effect.void
        }))
      )

  return UsageGroups.of({
    createSet: (actor, organizationId, input) =>
      tx.withTransaction(Effect.gen(function*() {
        yield* requireTeam(organizationId, input)
        const now = yield* DateTime.now
        const values = { name: input.name.trim(), order: input.order, team_id: input.team_id }
        const set = new UsageGroupSet({
          id: yield* newId<"UsageGroupSetId">(),
          organization_id: organizationId,
          ...values,
          created_at: now,
          updated_at: now,
          etag: setEtag(values)
        })
        yield* repo.insertSet(set).pipe(
          Effect.catchTag("AlreadyExists", () =>
            Effect.fail(new AlreadyExists({ message: `a usage group set named '${set.name}' already exists` })))
        )
        yield* audit.record(actor, organizationId, UsageGroupSetAudit.created(set))
        return set
      })),

    getSet,

    getGroup,

    listGroups: (organizationId, setId, request) =>
      Effect.zipRight(
        getSet(organizationId, setId),
        cursors.page(organizationId, groupList(setId), request, { size: "query.max_results" }, ({ after, limit }) =>
          repo.listGroups({ organizationId, setId, after: Option.fromNullable(after), limit: Option.some(limit) }))
      ),

    allGroups: (organizationId, setId) =>
      Effect.zipRight(
        getSet(organizationId, setId),
        repo.listGroups({ organizationId, setId, after: Option.none(), limit: Option.none() })
      ),

    createGroup: (actor, organizationId, setId, input) =>
      tx.withTransaction(Effect.gen(function*() {
        const set = yield* getSet(organizationId, setId)
        const filter = yield* FilterExpression.fromWriteInput(input, scopeOf(set)).pipe(
          Effect.flatMap(Option.match({
            onNone: () =>
              ValidationFailed.single(
                "filter_expression",
                "missing",
                "filter_expression or filter_expression_json is required"
              ),
            onSome: Effect.succeed
          }))
        )
        const now = yield* DateTime.now
        const values = { name: input.name.trim(), budget: input.budget, order: input.order, filter_expression: filter }
        const group = new UsageGroup({
          id: yield* newId<"UsageGroupId">(),
          organization_id: organizationId,
          usage_group_set_id: set.id,
          usage_group_set_name: set.name,
          ...values,
          created_at: now,
          updated_at: now,
          etag: groupEtag(values)
        })
        yield* repo.insertGroup(group)
        yield* audit.record(actor, organizationId, UsageGroupAudit.created(group))
        return group
      })),

    updateGroup: (actor, organizationId, setId, id, patch, precondition) =>
      tx.withTransaction(Effect.gen(function*() {
        const set = yield* getSet(organizationId, setId)
        const filter = yield* FilterExpression.fromWriteInput(patch, scopeOf(set))
        const now = yield* DateTime.now
        const write = (current: UsageGroup) =>
          Effect.gen(function*() {
            const next = applyPatch(current, patch, filter, now)
            if (next === current) return written(current)
            if (!(yield* repo.updateGroupIfEtag(next, current.etag))) return stale
            yield* audit.record(actor, organizationId, UsageGroupAudit.updated(current, next))
            return written(next)
          })
        return yield* conditionalWrite({ what: "the usage group", precondition, read: getGroup(organizationId, setId, id), write })
      })),

    deleteGroup: (actor, organizationId, setId, id, precondition) =>
      tx.withTransaction(Effect.gen(function*() {
        const write = (current: UsageGroup) =>
          Effect.gen(function*() {
            if (!(yield* repo.deleteGroupIfEtag(organizationId, setId, id, current.etag))) return stale
            yield* audit.record(actor, organizationId, UsageGroupAudit.deleted(current))
            return written(undefined)
          })
        return yield* conditionalWrite({ what: "the usage group", precondition, read: getGroup(organizationId, setId, id), write })
      }))
  })
})

/**
 * @since 0.1.0
 * @category layers
 */
export const layer = Layer.effect(UsageGroups, make)
