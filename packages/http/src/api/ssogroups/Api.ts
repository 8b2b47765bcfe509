/**
 * SSO group mappings. v2 (keyed by `sso_group_id`): `POST` and `GET /v2/sso-groups`,
 * `GET` (extension) and `PATCH /v2/sso-groups/{sso_group_id}`. v1 (keyed by name):
 * `POST`, `GET /api/{organization_id}/sso-group-mappings` and `PUT …/{sso_group_name}`.
 */
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "@effect/platform"
import { Listing, SsoGroup } from "@costline/core"
import { Schema } from "effect"
import { Access, type AttemptedChange, change, Requires } from "../Access.js"
import { Declared } from "../Errors.js"
import { offsetPageV1, pageOf } from "../Pages.js"
import { IfMatchHeaders } from "../Preconditions.js"
import { integerParam } from "../QueryParams.js"
import { RoleAssignmentV1, RoleAssignmentV2 } from "../roles/Schemas.js"
import { OrganizationIdParam, SuccessorVersion, v1, v2 } from "../Versions.js"

const SsoGroupIdParam = HttpApiSchema.param("sso_group_id", Schema.String)
const SsoGroupNameParam = HttpApiSchema.param("sso_group_name", Schema.String)

export const CreateSsoGroupV2 = Schema.Struct({ name: SsoGroup.SsoGroupName, roles: SsoGroup.SsoGroupRoles }).annotations({ identifier: "SsoGroupCreate" })

export const SsoGroupV2 = Schema.Struct({
  id: Schema.String,
  name: Schema.String,
  roles: Schema.Array(RoleAssignmentV2),
  etag: Schema.String,
  created_at: Schema.DateTimeUtc,
  updated_at: Schema.DateTimeUtc,
  create_time: Schema.DateTimeUtc,
  update_time: Schema.DateTimeUtc
}).annotations({ identifier: "SsoGroup" })

export const SsoGroupPage = pageOf(SsoGroupV2, "SsoGroupPage")

export const SsoGroupMappingCreateV1 = Schema.Struct({ sso_group_name: SsoGroup.SsoGroupName, roles: SsoGroup.SsoGroupRoles }).annotations({
  identifier: "SsoGroupMappingCreateV1"
})

export const SsoGroupMappingRenameV1 = Schema.Struct({ new_sso_group_name: SsoGroup.SsoGroupName }).annotations({
  identifier: "SsoGroupMappingRenameV1"
})

export const SsoGroupMappingV1 = Schema.Struct({
  sso_group_name: Schema.String,
  roles: Schema.Array(RoleAssignmentV1)
}).annotations({ identifier: "SsoGroupMappingV1" })

export const SsoGroupMappingsV1 = offsetPageV1("sso_groups", SsoGroupMappingV1).annotations({ identifier: "SsoGroupMappingsV1" })

export const SsoGroupsParams = Schema.Struct({
  max_results: Schema.optionalWith(integerParam(1, Listing.MAX_PAGE_SIZE), { default: () => Listing.DEFAULT_PAGE_SIZE }),
  page_token: Schema.optional(Schema.String)
})

export const SsoGroupMappingsParams = Schema.Struct({
  limit: Schema.optionalWith(integerParam(1, Listing.V1_MAX_LIMIT), { default: () => Listing.V1_DEFAULT_LIMIT }),
  offset: Schema.optionalWith(integerParam(0, Number.MAX_SAFE_INTEGER), { default: () => 0 })
})

const changes = (table_name: string, operation: AttemptedChange["operation"], recordIdParam?: string) =>
  change("user_roles", table_name, operation, recordIdParam)

const read = Access.read("sso_groups")
const create = Access.write("sso_groups", changes("sso_groups", "create"))

/** How the docs page and the documents name and describe this group (both versions). */
const tag = OpenApi.annotations({
  title: "SSO groups",
  description: "Groups of the organization's identity provider and the roles their members get when they " +
    "sign in."
})

export class SsoGroupsApi extends v2(
  HttpApiGroup.make("ssoGroups").annotateContext(tag)
    .add(
      HttpApiEndpoint.post("createSsoGroup", "/sso-groups")
        .annotate(Requires, create)
        .setPayload(CreateSsoGroupV2)
        .addSuccess(SsoGroupV2, { status: 201 })
        .addError(Declared.AlreadyExists)
        .addError(Declared.ValidationFailed)
    )
    .add(
      HttpApiEndpoint.get("listSsoGroups", "/sso-groups")
        .annotate(Requires, read)
        .setUrlParams(SsoGroupsParams)
        .addSuccess(SsoGroupPage)
        .addError(Declared.InvalidPageToken)
        .addError(Declared.ValidationFailed)
    )
    .add(
      HttpApiEndpoint.get("getSsoGroup")`/sso-groups/${SsoGroupIdParam}`
        .annotate(Requires, read)
        .addSuccess(SsoGroupV2)
    )
    .add(
      HttpApiEndpoint.patch("updateSsoGroup")`/sso-groups/${SsoGroupIdParam}`
        .annotate(Requires, Access.write("sso_groups", changes("sso_groups", "update", "sso_group_id")))
        .setHeaders(IfMatchHeaders)
        .setPayload(SsoGroup.SsoGroupPatch)
        .addSuccess(SsoGroupV2)
        .addError(Declared.AlreadyExists)
        .addError(Declared.PreconditionFailed)
        .addError(Declared.Conflict)
        .addError(Declared.ValidationFailed)
    )
) {}

export class SsoGroupsV1Api extends v1(
  HttpApiGroup.make("ssoGroupsV1").annotateContext(tag)
    .add(
      HttpApiEndpoint.post("createSsoGroupMapping")`/${OrganizationIdParam}/sso-group-mappings`
        .annotate(Requires, create)
        .setPayload(SsoGroupMappingCreateV1)
        .addSuccess(SsoGroupMappingV1)
        .addError(Declared.AlreadyExists)
        .addError(Declared.ValidationFailed)
        .annotate(SuccessorVersion, "/v2/sso-groups")
    )
    .add(
      HttpApiEndpoint.put("renameSsoGroupMapping")`/${OrganizationIdParam}/sso-group-mappings/${SsoGroupNameParam}`
        .annotate(Requires, Access.write("sso_groups", changes("sso_groups", "update", "sso_group_name")))
        .setPayload(SsoGroupMappingRenameV1)
        .addSuccess(SsoGroupMappingV1)
        .addError(Declared.AlreadyExists)
        .addError(Declared.Conflict)
        .addError(Declared.ValidationFailed)
        .annotate(SuccessorVersion, "/v2/sso-groups")
    )
    .add(
      HttpApiEndpoint.get("listSsoGroupMappings")`/${OrganizationIdParam}/sso-group-mappings`
        .annotate(Requires, read)
        .setUrlParams(SsoGroupMappingsParams)
        .addSuccess(SsoGroupMappingsV1)
        .addError(Declared.ValidationFailed)
        .annotate(SuccessorVersion, "/v2/sso-groups")
    )
) {}
