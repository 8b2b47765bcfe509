/**
 * The usage groups service: sets, and the groups inside them. Every change appends its
 * `usage_group_sets` audit record (table `usage_group_sets` or `usage_groups`) in the same
 * transaction.
 */
import { Context, DateTime, Effect, Layer, Option } from "effect"
import { AuditLog } from "../audit/AuditLog.js"
import { InstallationRepo } from "../audit/Repo.js"
import type { Actor } from "../shared/Actor.js"
import { type Stale, STALE, untilWritten } from "../shared/CompareAndSet.js"
import {
  AlreadyExists,
  type Conflict,
  type InvalidPageToken,
  NotFound,
  type PreconditionFailed,
  type StoreUnavailable,
  ValidationFailed,
  orNotFound
} from "../shared/Errors.js"
import * as ETag from "../shared/ETag.js"
import { newId, type OrganizationId } from "../shared/Ids.js"
import { checkPageSize, type KeysetRequest } from "../shared/Listing.js"
import { MAX_PAGE_SIZE, type Page } from "../shared/Pagination.js"
import { Transactor } from "../shared/Transactor.js"
import { TeamsRepo } from "../teams/Repo.js"
import {
  type CreateUsageGroup,
  type CreateUsageGroupSet,
  type PatchUsageGroup,
  scopeOf,
  UsageGroup,
  type UsageGroupId,
  UsageGroupSet,
  type UsageGroupSetId
} from "./Domain.js"
import { applyPatch, groupEtag, setEtag, UsageGroupAudit, UsageGroupSetAudit } from "./Editable.js"
import * as FilterExpression from "./FilterExpression.js"
import * as GroupPageToken from "./GroupPageToken.js"
import { UsageGroupsRepo } from "./Repo.js"

type Io<A, E> = Effect.Effect<A, E | StoreUnavailable>

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
     * A merge patch. `ifMatch` is the raw `If-Match` header, optional: when given, the change is
     * made only while the group's ETag matches it (else PreconditionFailed).
     */
    readonly updateGroup: (
      actor: Actor,
      organizationId: OrganizationId,
      setId: UsageGroupSetId,
      id: UsageGroupId,
      patch: PatchUsageGroup,
      ifMatch?: string
    ) => Io<UsageGroup, NotFound | ValidationFailed | PreconditionFailed | Conflict>
    readonly deleteGroup: (
      actor: Actor,
      organizationId: OrganizationId,
      setId: UsageGroupSetId,
      id: UsageGroupId,
      ifMatch?: string
    ) => Io<void, NotFound | ValidationFailed | PreconditionFailed | Conflict>
  }
>() {}

const parseIfMatch = (ifMatch: string | undefined) =>
  ifMatch === undefined ? Effect.succeed(undefined) : ETag.parse("if-match", ifMatch)

export const make = Effect.gen(function*() {
  const repo = yield* UsageGroupsRepo
  const teams = yield* TeamsRepo
  const installation = yield* InstallationRepo
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

  /**
   * One try of a conditional change: the group as stored now, checked against `If-Match`, then
   * `write`, which answers STALE when a concurrent change came first (untilWritten tries again).
   */
  const changeOnce = <A>(
    organizationId: OrganizationId,
    setId: UsageGroupSetId,
    id: UsageGroupId,
    condition: ETag.Condition | undefined,
    write: (current: UsageGroup) => Effect.Effect<A | Stale, StoreUnavailable>
  ) =>
    Effect.gen(function*() {
      const current = yield* getGroup(organizationId, setId, id)
      yield* ETag.checkIfMatch(condition, current.etag, "the usage group")
      return yield* write(current)
    })

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
      Effect.gen(function*() {
        const { maxResults, pageToken } = request
        yield* checkPageSize(maxResults, MAX_PAGE_SIZE, "query.max_results")
        yield* getSet(organizationId, setId)
        const secret = yield* installation.cursorSecret
        const after = pageToken === undefined
          ? Option.none()
          : Option.some(yield* GroupPageToken.decode(secret, pageToken, organizationId, setId))
        // One more than asked for tells whether another page follows.
        const rows = yield* repo.listGroups({ organizationId, setId, after, limit: Option.some(maxResults + 1) })
        const items = rows.slice(0, maxResults)
        const page_token = rows.length > maxResults
          ? GroupPageToken.encode(secret, organizationId, setId, items.at(-1)!)
          : null
        return { items, page_token }
      }),

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

    updateGroup: (actor, organizationId, setId, id, patch, ifMatch) =>
      tx.withTransaction(Effect.gen(function*() {
        const condition = yield* parseIfMatch(ifMatch)
        const set = yield* getSet(organizationId, setId)
        const filter = yield* FilterExpression.fromWriteInput(patch, scopeOf(set))
        const now = yield* DateTime.now
        const updateOnce = changeOnce(organizationId, setId, id, condition, (current) =>
          Effect.gen(function*() {
            const next = applyPatch(current, patch, filter, now)
            if (next === current) return current
            if (!(yield* repo.updateGroupIfEtag(next, current.etag))) return STALE
            yield* audit.record(actor, organizationId, UsageGroupAudit.updated(current, next))
            return next
          }))
        return yield* untilWritten(updateOnce, "the usage group")
      })),

    deleteGroup: (actor, organizationId, setId, id, ifMatch) =>
      tx.withTransaction(Effect.gen(function*() {
        const condition = yield* parseIfMatch(ifMatch)
        const deleteOnce = changeOnce(organizationId, setId, id, condition, (current) =>
          Effect.gen(function*() {
            if (!(yield* repo.deleteGroupIfEtag(organizationId, setId, id, current.etag))) return STALE
            yield* audit.record(actor, organizationId, UsageGroupAudit.deleted(current))
          }))
        return yield* untilWritten(deleteOnce, "the usage group")
      }))
  })
})

export const layer = Layer.effect(UsageGroups, make)
