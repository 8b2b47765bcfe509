/**
 * API keys, administered by the organization's admins: `GET /v2/api-keys`, `POST /v2/api-keys`
 * (the token is in the 201 response, once), `DELETE /v2/api-keys/{api_key_id}` (revocation, 204).
 * A key used to create a key bounds it: no more access, no scope it does not hold itself.
 */
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "@effect/platform"
import { Identity } from "@costline/core"
import { Schema, Struct } from "effect"
import { Access, change, Requires } from "../Access.js"
import { Declared } from "../Errors.js"
import { pageOf } from "../Pages.js"
import { v2 } from "../Versions.js"

/** A key as the API shows it: the tenant is the caller's own; never its token (only a hash is stored). */
export const ApiKeyV2 = Schema.Struct(Struct.omit(Identity.ApiKey.fields, "organization_id")).annotations({ identifier: "ApiKey" })

export const CreatedApiKey = Schema.Struct({
  ...ApiKeyV2.fields,
  /** The bearer token: shown in this response only, never again. */
  token: Schema.String
}).annotations({ identifier: "CreatedApiKey" })

export const CreateApiKeyV2 = Schema.Struct({
  name: Schema.String.pipe(Schema.minLength(1), Schema.maxLength(200)),
  access: Identity.Access,
  scopes: Schema.Array(Identity.ApiKeyScope).pipe(Schema.minItems(1)),
  expires_at: Schema.optional(Schema.NullOr(Schema.DateTimeUtc))
}).annotations({ identifier: "CreateApiKey" })

export const ApiKeyPage = pageOf(ApiKeyV2, "ApiKeyPage")

const ApiKeyIdParam = HttpApiSchema.param("api_key_id", Schema.String)

const manage = (operation?: "create" | "delete", recordIdParam?: string) =>
  Access.manageApiKeys(operation && change("api_keys", "api_keys", operation, recordIdParam))

/** How the docs page and the documents name and describe this group. */
const tag = OpenApi.annotations({
  title: "API keys",
  description: "The organization's API keys: create one (its token is shown once), list them, revoke one."
})

export class ApiKeysApi extends v2(
  HttpApiGroup.make("apiKeys").annotateContext(tag)
    .add(
      HttpApiEndpoint.get("listApiKeys", "/api-keys")
        .annotate(Requires, manage())
        .addSuccess(ApiKeyPage)
    )
    .add(
      HttpApiEndpoint.post("createApiKey", "/api-keys")
        .annotate(Requires, manage("create"))
        .setPayload(CreateApiKeyV2)
        .addSuccess(CreatedApiKey, { status: 201 })
        .addError(Declared.ValidationFailed)
        .addError(Declared.Conflict)
    )
    .add(
      HttpApiEndpoint.del("revokeApiKey")`/api-keys/${ApiKeyIdParam}`
        .annotate(Requires, manage("delete", "api_key_id"))
        .addSuccess(HttpApiSchema.NoContent)
        .addError(Declared.Conflict)
    )
) {}
