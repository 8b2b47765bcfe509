/**
 * Usage group sets and groups. v2: `POST /usage-group-sets`, `GET /usage-group-sets/{id}`, the
 * set's groups (`GET` a page in precedence order, `POST` one, `GET`/`PATCH`/`DELETE` one by id),
 * two reads: `GET /usage-group-sets/{id}/attribution?month=` and `GET /usage-dimensions?scope=`, and
 * one action: `POST /usage-group-sets/{id}/actions/raise-budget-alerts` (`{ "month": "YYYY-MM" }`).
 * v1 (deprecated): create a set, read it with its groups, `PUT` and `DELETE` a group.
 */
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "@effect/platform"
import { Listing, Usage, UsageMonth } from "@costline/core"
import { Schema } from "effect"
import { Access, change, Requires } from "../Access.js"
import { Declared } from "../Errors.js"
import { IfMatchHeaders } from "../Preconditions.js"
import { integerParam } from "../QueryParams.js"
import { OrganizationIdParam, SuccessorVersion, v1, v2 } from "../Versions.js"
import {
  AttributionV2,
  BudgetAlertsV2,
  DimensionPage,
  Success,
  UsageGroupPage,
  UsageGroupSetDetailsV1,
  UsageGroupSetV1,
  UsageGroupSetV2,
  UsageGroupV1,
  UsageGroupV2
} from "./Shapes.js"

/** Reading and changing usage groups; a refused change is audited as what it would have changed. */
const READ = Access.read("usage_groups")
const CREATE_SET = Access.write("usage_groups", change("usage_group_sets", "usage_group_sets", "create"))
const CREATE_GROUP = Access.write("usage_groups", change("usage_group_sets", "usage_groups", "create"))
const UPDATE_GROUP = Access.write("usage_groups", change("usage_group_sets", "usage_groups", "update", "usage_group_id"))
const DELETE_GROUP = Access.write("usage_groups", change("usage_group_sets", "usage_groups", "delete", "usage_group_id"))
/** Raising budget alerts writes insights: it needs what creating one does, and a refusal is audited as one. */
const RAISE_ALERTS = Access.write("insights", change("insights", "insights", "create"))

// Any text: the handlers answer 404 for one that is no id (see PathIds.ts).
const SetIdParam = HttpApiSchema.param("usage_group_set_id", Schema.String)
const GroupIdParam = HttpApiSchema.param("usage_group_id", Schema.String)

// v1 declares these ids as UUIDs (spec "v1 operations"), and FastAPI refuses other text with a 422
// at `["path", …]` before looking anything up.
const Uuid = Schema.UUID.annotations({ message: () => "must be a UUID" })
const SetIdParamV1 = HttpApiSchema.param("usage_group_set_id", Uuid)
const GroupIdParamV1 = HttpApiSchema.param("usage_group_id", Uuid)

export const UsageGroupsParams = Schema.Struct({
  max_results: Schema.optionalWith(integerParam(1, Listing.MAX_PAGE_SIZE), { default: () => Listing.DEFAULT_PAGE_SIZE }),
  page_token: Schema.optional(Schema.String)
})

export const AttributionParams = Schema.Struct({ month: UsageMonth.Month })

export const RaiseBudgetAlerts = Schema.Struct({ month: UsageMonth.Month })
  .annotations({ identifier: "RaiseBudgetAlerts", parseOptions: { onExcessProperty: "error" } })

export const DimensionsParams = Schema.Struct({
  scope: Schema.optionalWith(Usage.UsageScope, { default: () => "organization" as const })
})

/**
 * The v1 `PUT` body: a merge patch that may repeat the group's `id`, which must then be the one
 * in the path (checked by the handler, which knows the path).
 */
export const UsageGroupPutV1 = Schema.Struct({ id: Schema.optional(Usage.UsageGroupId), ...Usage.patchUsageGroupFields })
  .annotations({ parseOptions: { onExcessProperty: "error" } })
  .pipe(Schema.filter(Usage.notBothFilterForms))

/** How the docs page and the documents name and describe this group (both versions). */
const tag = OpenApi.annotations({
  title: "Usage groups",
  description: "Usage group sets and their groups (filter expressions over usage dimensions, budgets), the " +
    "dimensions a filter can use, and a month's usage attributed to each group."
})

export class UsageGroupsApi extends v2(
  HttpApiGroup.make("usageGroups").annotateContext(tag)
    .add(
      HttpApiEndpoint.post("createUsageGroupSet", "/usage-group-sets")
        .annotate(Requires, CREATE_SET)
        .setPayload(Usage.CreateUsageGroupSet)
        .addSuccess(UsageGroupSetV2, { status: 201 })
        .addError(Declared.AlreadyExists)
        .addError(Declared.ValidationFailed)
    )
    .add(
      HttpApiEndpoint.get("getUsageGroupSet")`/usage-group-sets/${SetIdParam}`
        .annotate(Requires, READ)
        .addSuccess(UsageGroupSetV2)
    )
    .add(
      HttpApiEndpoint.get("listUsageGroups")`/usage-group-sets/${SetIdParam}/usage-groups`
        .annotate(Requires, READ)
        .setUrlParams(UsageGroupsParams)
        .addSuccess(UsageGroupPage)
        .addError(Declared.InvalidPageToken)
        .addError(Declared.ValidationFailed)
    )
    .add(
      HttpApiEndpoint.post("createUsageGroup")`/usage-group-sets/${SetIdParam}/usage-groups`
        .annotate(Requires, CREATE_GROUP)
        .setPayload(Usage.CreateUsageGroup)
        .addSuccess(UsageGroupV2, { status: 201 })
        .addError(Declared.ValidationFailed)
    )
    .add(
      HttpApiEndpoint.get("getUsageGroup")`/usage-group-sets/${SetIdParam}/usage-groups/${GroupIdParam}`
        .annotate(Requires, READ)
        .addSuccess(UsageGroupV2)
    )
    .add(
      HttpApiEndpoint.patch("updateUsageGroup")`/usage-group-sets/${SetIdParam}/usage-groups/${GroupIdParam}`
        .annotate(Requires, UPDATE_GROUP)
        .setHeaders(IfMatchHeaders)
        .setPayload(Usage.PatchUsageGroup)
        .addSuccess(UsageGroupV2)
        .addError(Declared.ValidationFailed)
        .addError(Declared.PreconditionFailed)
        .addError(Declared.Conflict)
    )
    .add(
      HttpApiEndpoint.del("deleteUsageGroup")`/usage-group-sets/${SetIdParam}/usage-groups/${GroupIdParam}`
        .annotate(Requires, DELETE_GROUP)
        .setHeaders(IfMatchHeaders)
        .addSuccess(HttpApiSchema.NoContent)
        .addError(Declared.ValidationFailed)
        .addError(Declared.PreconditionFailed)
        .addError(Declared.Conflict)
    )
    .add(
      HttpApiEndpoint.get("getAttribution")`/usage-group-sets/${SetIdParam}/attribution`
        .annotate(Requires, READ)
        .setUrlParams(AttributionParams)
        .addSuccess(AttributionV2)
        .addError(Declared.AttributionTimedOut)
    )
    .add(
      HttpApiEndpoint.post("raiseBudgetAlerts")`/usage-group-sets/${SetIdParam}/actions/raise-budget-alerts`
        .annotate(Requires, RAISE_ALERTS)
        .setPayload(RaiseBudgetAlerts)
        .addSuccess(BudgetAlertsV2)
        .addError(Declared.ValidationFailed)
        .addError(Declared.AttributionTimedOut)
    )
    .add(
      HttpApiEndpoint.get("listUsageDimensions", "/usage-dimensions")
        .annotate(Requires, READ)
        .setUrlParams(DimensionsParams)
        .addSuccess(DimensionPage)
    )
) {}

const V2_SET = "/v2/usage-group-sets/:usage_group_set_id"
const V2_GROUP = `${V2_SET}/usage-groups/:usage_group_id`

export class UsageGroupsV1Api extends v1(
  HttpApiGroup.make("usageGroupsV1").annotateContext(tag)
    .add(
      HttpApiEndpoint.post("createUsageGroupSet")`/${OrganizationIdParam}/usage-group-sets`
        .annotate(Requires, CREATE_SET)
        .setPayload(Usage.CreateUsageGroupSet)
        .addSuccess(UsageGroupSetV1)
        .addError(Declared.AlreadyExists)
        .addError(Declared.ValidationFailed)
        .annotate(SuccessorVersion, "/v2/usage-group-sets")
    )
    .add(
      HttpApiEndpoint.get("getUsageGroupSet")`/${OrganizationIdParam}/usage-group-sets/${SetIdParamV1}`
        .annotate(Requires, READ)
        .addSuccess(UsageGroupSetDetailsV1)
        .annotate(SuccessorVersion, V2_SET)
    )
    .add(
      HttpApiEndpoint.put("putUsageGroup")`/${OrganizationIdParam}/usage-group-sets/${SetIdParamV1}/usage-groups/${GroupIdParamV1}`
        .annotate(Requires, UPDATE_GROUP)
        .setPayload(UsageGroupPutV1)
        .addSuccess(UsageGroupV1)
        .addError(Declared.ValidationFailed)
        .addError(Declared.Conflict)
        .annotate(SuccessorVersion, V2_GROUP)
    )
    .add(
      HttpApiEndpoint.del("deleteUsageGroup")`/${OrganizationIdParam}/usage-group-sets/${SetIdParamV1}/usage-groups/${GroupIdParamV1}`
        .annotate(Requires, DELETE_GROUP)
        .addSuccess(Success)
        .addError(Declared.Conflict)
        .annotate(SuccessorVersion, V2_GROUP)
    )
) {}
