/**
 * `BudgetAlerts.raise`: a month's attribution, then a `budget_exceeded` insight for every group
 * over budget (Budget's one rule), raised through `Insights.upsert`, so raising again updates the
 * same insight (keyed by group and month) instead of adding one, and leaves its triage (status,
 * assignee) alone. The one operation behind `costline usage report` and
 * `POST /v2/usage-group-sets/{id}/actions/raise-budget-alerts`.
 */
import { Context, Effect, Layer } from "effect"
import { AuditLog } from "../audit/AuditLog.js"
import { authorityOf } from "../identity/internal/GrantGuard.js"
import * as Permissions from "../identity/Permissions.js"
import { InsightUpsert } from "../insights/Domain.js"
import type { UpsertResult } from "../insights/Repo.js"
import { Insights } from "../insights/Insights.js"
import type { Actor } from "../shared/Actor.js"
import { Forbidden, type NotFound, type StoreUnavailable } from "../shared/Errors.js"
import type { OrganizationId } from "../shared/Ids.js"
import {
  Attribution,
  type AttributionOptions,
  type AttributionReport,
  type AttributionTimedOut,
  type GroupAttribution
} from "./AttributionService.js"
import { raisesBudgetExceeded } from "./Budget.js"
import type { UsageGroup, UsageGroupSetId } from "./Domain.js"
import type { Month } from "./Month.js"

/**
 * Overspending by this share of the budget or more is `high` severity, less is `medium`.
 * @since 0.1.0
 * @category constants
 */
export const HIGH_SEVERITY_OVERSPEND = 0.2

/**
 * The insight's natural key within its type: one per group and month.
 * @since 0.1.0
 * @category utils
 */
export const resourceIdOf = (attribution: GroupAttribution, month: string) => `${attribution.group.id}/${month}`

const credits = (value: number) => `${Number(value.toFixed(2))} credits`

/**
 * Credits to the millionth: a sum of many floats depends, in its last bits, on the order it was
 * added in, and the insight must not change (nor its ETag move) when only that order did.
 */
const microCredits = (value: number) => Math.round(value * 1e6) / 1e6

/**
 * The insight for a group over budget; none for any other status.
 * @since 0.1.0
 * @category utils
 */
export const budgetExceededInsight = (report: AttributionReport, attribution: GroupAttribution): InsightUpsert | undefined => {
  const { budget, group } = attribution
  if (!raisesBudgetExceeded(attribution) || budget === null) return undefined
  const spent = microCredits(attribution.spent)
  const overspend = microCredits(spent - budget)
  return new InsightUpsert({
    insight_type: "budget_exceeded",
    resource_type: "usage_group",
    resource_id: resourceIdOf(attribution, report.month),
    title: `${group.name} is over budget in ${report.month}`,
    description: `Usage group '${group.name}' of '${report.set.name}' used ${credits(spent)} in ${report.month}, ` +
      `${credits(overspend)} over its monthly budget of ${credits(budget)}.`,
    severity: budget === 0 || overspend >= HIGH_SEVERITY_OVERSPEND * budget ? "high" : "medium",
    is_current: true,
    dw_id: null,
    connection_id: null,
    // Staying within the budget saves at least the overspend.
    potential_savings: overspend,
    details: {
      usage_group_set_id: report.set.id,
      usage_group_id: group.id,
      month: report.month,
      spent,
      budget,
      records: attribution.records
    }
  })
}

/**
 * What raising did: the attribution it was based on, and each alert's upsert in precedence order.
 * @since 0.1.0
 * @category models
 */
export interface BudgetAlertsRun {
  readonly report: AttributionReport
  readonly alerts: ReadonlyArray<{ readonly group: UsageGroup; readonly result: UpsertResult }>
}

/**
 * @since 0.1.0
 * @category tags
 */
export class BudgetAlerts extends Context.Tag("@costline/core/BudgetAlerts")<
  BudgetAlerts,
  {
    /** Attributes the month (`options` as for `Attribution.run`), then raises the alert of every group over budget. */
    readonly raise: (
      actor: Actor,
      organizationId: OrganizationId,
      setId: UsageGroupSetId,
      month: Month,
      options?: AttributionOptions
    ) => Effect.Effect<BudgetAlertsRun, Forbidden | NotFound | StoreUnavailable | AttributionTimedOut>
  }
>() {}

/**
 * The run carries the month's attribution (every group's name, budget and spend), which only a
 * reader of usage groups may see: a principal raising needs that too, or write access to insights
 * alone would read what `GET …/attribution` refuses. The operator (the CLI's report) may; so may
 * an actor without a principal, whose insights write core does not check either (the route does).
 */
const mayReadAttribution = (actor: Actor): Effect.Effect<void, Forbidden> => {
  const authority = authorityOf(actor)
  if (authority._tag !== "Principal") return Effect.void
  const permission = Permissions.read("usage_groups")
  return Permissions.isAllowed(authority.principal, permission)
    ? Effect.void
    : Effect.fail(new Forbidden({ message: `not allowed to ${permission.action} ${permission.area}` }))
}

/**
 * @since 0.1.0
 * @category constructors
 */
export const make = Effect.gen(function*() {
  const attribution = yield* Attribution
  const insights = yield* Insights
  const audit = yield* AuditLog

  return BudgetAlerts.of({
    raise: (actor, organizationId, setId, month, options) =>
      Effect.gen(function*() {
        // Refused like the route's own permission: audited as a failed insights create.
        yield* mayReadAttribution(actor).pipe(Effect.catchAll((error) =>
          Effect.zipRight(
            audit.record(actor, organizationId, {
              target: { resource: "insights" },
              table_name: "insights",
              record_id: null,
              operation: "create",
              old_values: null,
              new_values: { usage_group_set_id: setId, month },
              status: "failure"
            }),
            Effect.fail(error)
          )
        ))
        const report = yield* attribution.run(organizationId, setId, month, options)
        const alerts = yield* Effect.forEach(
          report.groups.flatMap((group) => {
            const insight = budgetExceededInsight(report, group)
            return insight === undefined ? [] : [{ group: group.group, insight }]
          }),
          ({ group, insight }) => Effect.map(insights.upsert(actor, organizationId, insight), (result) => ({ group, result }))
        )
        return { report, alerts }
      })
  })
})

/**
 * @since 0.1.0
 * @category layers
 */
export const layer = Layer.effect(BudgetAlerts, make)
