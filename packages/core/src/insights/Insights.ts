/**
 * The insights service: ingestion (`upsert`), reads, the ETag-guarded update and view tracking.
 * Every change appends its `insights` audit record in the same transaction; views are not
 * changes of the insight (its ETag and `update_time` stay) and are not audited.
 */
import { Context, DateTime, Effect, Either, Layer, Option } from "effect"
import { AuditLog } from "../audit/AuditLog.js"
import type { Principal } from "../identity/Domain.js"
import { Organizations } from "../identity/Organizations.js"
import type { Actor } from "../shared/Actor.js"
import { conditionalWrite, missing, stale, written } from "../shared/internal/ConditionalWrite.js"
import {
  type Conflict,
  type InvalidPageToken,
  type InvalidTransition,
  NotFound,
  orNotFound,
  type PreconditionFailed,
  type StoreUnavailable,
  type ValidationFailed
} from "../shared/Errors.js"
import { newId, type OrganizationId, parseId } from "../shared/Ids.js"
import { keysetOf, ListCursors, type Page } from "../shared/Listing.js"
import type * as Precondition from "../shared/Precondition.js"
import { Transactor } from "../shared/Transactor.js"
import { InsightAudit } from "./internal/AuditValues.js"
import { type Insight, InsightId, type InsightListQuery, type InsightUpdate, type InsightUpsert } from "./Domain.js"
import { ConditionalUpdateResult, InsightsRepo, UpsertResult, ViewResult } from "./Repo.js"
import { applyUpdate } from "./Update.js"
import { mergeUpsert } from "./Upsert.js"
import * as ViewDay from "./ViewDay.js"

/**
 * @since 0.1.0
 * @category models
 */
export type UpdateError =
  | NotFound
  | PreconditionFailed
  | InvalidTransition
  | Conflict
  | StoreUnavailable

/**
 * @since 0.1.0
 * @category tags
 */
export class Insights extends Context.Tag("@costline/core/Insights")<
  Insights,
  {
    /**
     * Creates the insight of (`insight_type`, `resource_id`) or replaces its detector-owned
     * content; its status, assignee and views stay. Unchanged content is no change: same ETag,
     * no audit record. An unknown organization is NotFound.
     */
    readonly upsert: (
      actor: Actor,
      organizationId: OrganizationId,
      input: InsightUpsert
    ) => Effect.Effect<UpsertResult, NotFound | StoreUnavailable>
    readonly get: (organizationId: OrganizationId, id: InsightId) => Effect.Effect<Insight, NotFound | StoreUnavailable>
    /** A page in (`sort_by`, `id`) order; `page_token` is null on the last page. */
    readonly list: (
      organizationId: OrganizationId,
      query: InsightListQuery
    ) => Effect.Effect<Page<Insight>, InvalidPageToken | ValidationFailed | StoreUnavailable>
    /**
     * `PATCH`: an insight is always updated under an `If-Match` (the API answers 428 without
     * one; host code that accepts any state passes `Precondition.any`). It must match the
     * current ETag (strong comparison; `*` matches any), checked and written in one transaction
     * holding the insight, so of two updates sent with the same ETag exactly one succeeds, and
     * concurrent updates with `*` all do. A patch that changes nothing returns the insight as it is.
     */
    readonly update: (
      actor: Actor,
      organizationId: OrganizationId,
      id: InsightId,
      patch: InsightUpdate,
      precondition: Precondition.IfMatch
    ) => Effect.Effect<Insight, UpdateError>
    /**
     * Records that a user viewed the insight: `view_count` grows at most once per user and UTC
     * day. An API key records nothing (the insight must still exist).
     */
    readonly recordView: (
      viewer: Principal,
      organizationId: OrganizationId,
      id: InsightId
    ) => Effect.Effect<void, NotFound | StoreUnavailable>
  }
>() {}

const notFound = (id: string) => new NotFound({ resource: "insight", id })

/**
 * An id from a request, read by the one id parser (`shared/Ids.ts`).
 * @since 0.1.0
 * @category utils
 */
export const parseInsightId: (raw: string) => Either.Either<InsightId, NotFound> = parseId(InsightId, "insight")

/**
 * @since 0.1.0
 * @category constructors
 */
export const make = Effect.gen(function*() {
  const repo = yield* InsightsRepo
  const cursors = yield* ListCursors
  const organizations = yield* Organizations
  const audit = yield* AuditLog
  const tx = yield* Transactor

  const get = (organizationId: OrganizationId, id: InsightId) =>
    repo.findById(organizationId, id).pipe(orNotFound("insight", id))

  const upsert = (actor: Actor, organizationId: OrganizationId, input: InsightUpsert) =>
    Effect.gen(function*() {
      yield* organizations.get(organizationId)
      const fresh = { id: yield* newId<"InsightId">(), now: yield* DateTime.now }
      const key = { insight_type: input.insight_type, resource_id: input.resource_id }
      return yield* tx.withTransaction(
        Effect.tap(repo.upsert(organizationId, key, mergeUpsert(input, fresh)), (result) =>
          UpsertResult.$match(result, {
            Created: ({ insight }) => audit.record(actor, organizationId, InsightAudit.created(insight)),
            Updated: ({ before, insight }) => audit.record(actor, organizationId, InsightAudit.updated(before, insight)),
            Unchanged: () => Effect.void
          }))
      )
    })

  const list = (organizationId: OrganizationId, query: InsightListQuery) =>
    cursors.keysetPage(
      organizationId,
      // A token resumes only a listing in the same order: its position is a value of the sort key.
      `insights:${query.sort_by}:${query.sort_order}`,
      { pageToken: query.page_token, maxResults: query.max_results },
      { size: "query.max_results" },
      (window) =>
        repo.list({ organizationId, filters: query.filters, sortBy: query.sort_by, sortOrder: query.sort_order, window }),
      (insight) => keysetOf(insight[query.sort_by], insight.id)
    )

  /**
   * One transaction: read the insight holding it against other writers, check the precondition,
   * apply the patch, write it with its audit record. Concurrent updates of one insight take
   * turns, so each checks `If-Match` against the state the one before it left: `*` always
   * matches, a tag matches only the state it names.
   */
  const update = (
    actor: Actor,
    organizationId: OrganizationId,
    id: InsightId,
    patch: InsightUpdate,
    precondition: Precondition.IfMatch
  ) =>
    tx.withTransaction(conditionalWrite({
      what: "the insight",
      precondition,
      read: repo.lockById(organizationId, id).pipe(orNotFound("insight", id)),
      write: (current) =>
        Effect.gen(function*() {
          const edit = yield* applyUpdate(current, patch)
          if (Option.isNone(edit)) return written(current)
          const { etag, ...set } = edit.value
          const outcome = yield* repo.updateIfEtag({
            organizationId,
            id,
            expectedEtag: current.etag,
            set,
            newEtag: etag,
            updateTime: yield* DateTime.now
          })
          return yield* ConditionalUpdateResult.$match(outcome, {
            Updated: ({ insight }) =>
              Effect.as(audit.record(actor, organizationId, InsightAudit.updated(current, insight)), written(insight)),
            // Not while the row is held; the compare-and-set still refuses to write over a change.
            Stale: () => Effect.succeed(stale),
            NotFound: () => Effect.succeed(missing)
          })
        })
    }))

  const recordView = (viewer: Principal, organizationId: OrganizationId, id: InsightId) =>
    Effect.gen(function*() {
      if (viewer._tag !== "User") return yield* Effect.asVoid(get(organizationId, id))
      const at = yield* DateTime.now
      const result = yield* repo.recordView({ organizationId, insightId: id, viewer: viewer.email, day: ViewDay.dayKey(at), at })
      if (ViewResult.$is("NotFound")(result)) return yield* notFound(id)
    })

  return Insights.of({ upsert, get, list, update, recordView })
})

/**
 * @since 0.1.0
 * @category layers
 */
export const layer = Layer.effect(Insights, make)
