/**
 * A member's roles. v2: `GET`, `POST` (extension: a direct grant) `/v2/users/{email}/roles` and
 * `DELETE /v2/users/{email}/roles/{role_id}`. v1: `GET /api/{organization_id}/users/{email}/roles`
 * and `DELETE …/roles/{user_role_id}`.
 */
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "@effect/platform"
import { RoleScope } from "@costline/core"
import { Schema } from "effect"
import { Access, type AttemptedChange, change, Requires } from "../Access.js"
import { Declared } from "../Errors.js"
import { offsetPageV1, pageOf } from "../Pages.js"
import { UserRoleV1, UserRoleV2 } from "../roles/Schemas.js"
import { Success } from "../Success.js"
import { OrganizationIdParam, SuccessorVersion, v1, v2 } from "../Versions.js"
import { UserRolesParamsV1, UserRolesParamsV2 } from "./Params.js"

const EmailParam = HttpApiSchema.param("email", Schema.String)
const RoleIdParam = HttpApiSchema.param("role_id", Schema.String)
const UserRoleIdParam = HttpApiSchema.param("user_role_id", Schema.String)

export const UserRolePage = pageOf(UserRoleV2, "UserRolePage")

export const UserRolesV1 = offsetPageV1("roles", UserRoleV1).annotations({ identifier: "UserRolesV1" })

const changes = (operation: AttemptedChange["operation"], recordIdParam?: string) =>
  change("user_roles", "role_assignments", operation, recordIdParam)

const read = Access.read("users")

/** How the docs page and the documents name and describe this group (both versions). */
const tag = OpenApi.annotations({
  title: "User roles",
  description: "The roles a user holds (granted directly or through a team) and direct grants and " +
    "revocations."
})

export class UserRolesApi extends v2(
  HttpApiGroup.make("userRoles").annotateContext(tag)
    .add(
      HttpApiEndpoint.get("listUserRoles")`/users/${EmailParam}/roles`
        .annotate(Requires, read)
        .setUrlParams(UserRolesParamsV2)
        .addSuccess(UserRolePage)
        .addError(Declared.InvalidPageToken)
        .addError(Declared.ValidationFailed)
    )
    .add(
      HttpApiEndpoint.post("grantUserRole")`/users/${EmailParam}/roles`
        .annotate(Requires, Access.write("users", changes("create")))
        .setPayload(RoleScope.RoleGrant)
        .addSuccess(UserRoleV2, { status: 201 })
        .addError(Declared.AlreadyExists)
        .addError(Declared.ValidationFailed)
    )
    .add(
      HttpApiEndpoint.del("revokeUserRole")`/users/${EmailParam}/roles/${RoleIdParam}`
        .annotate(Requires, Access.write("users", changes("delete", "role_id")))
        .addSuccess(HttpApiSchema.NoContent)
        .addError(Declared.Conflict)
    )
) {}

export class UserRolesV1Api extends v1(
  HttpApiGroup.make("userRolesV1").annotateContext(tag)
    .add(
      HttpApiEndpoint.get("listUserRoles")`/${OrganizationIdParam}/users/${EmailParam}/roles`
        .annotate(Requires, read)
        .setUrlParams(UserRolesParamsV1)
        .addSuccess(UserRolesV1)
        .addError(Declared.ValidationFailed)
        .annotate(SuccessorVersion, "/v2/users/:email/roles")
    )
    .add(
      HttpApiEndpoint.del("revokeUserRole")`/${OrganizationIdParam}/users/${EmailParam}/roles/${UserRoleIdParam}`
        .annotate(Requires, Access.write("users", changes("delete", "user_role_id")))
        .addSuccess(Success)
        .addError(Declared.Conflict)
        .annotate(SuccessorVersion, "/v2/users/:email/roles/:user_role_id")
    )
) {}
