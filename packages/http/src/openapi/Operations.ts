/**
 * Completes one operation of the generated document with what the framework cannot declare:
 * every status the pipeline and the middlewares can answer, each error in its version's body,
 * the response headers, the tenant / request-id / If-Match request headers, and the security
 * requirement. Pure: operation in, operation out.
 */
import type { ApiVersion } from "../api/Versions.js"
import {
  errorDescription,
  fastApiExample,
  HEADERS,
  headerRef,
  HTTP_ERROR,
  HTTP_VALIDATION_ERROR,
  PARAMETERS,
  parameterRef,
  PROBLEM,
  problemExample,
  schemaRef,
  IF_MATCH_REQUIRED,
  SECURITY_SCHEME,
  TENANT_SCHEME
} from "./Components.js"
import type { Header, MediaType, Method, Operation, Parameter, Reference, RequestBody, Response } from "./Types.js"
import { isReference } from "./Types.js"

export interface OperationContext {
  readonly version: ApiVersion
  /** Rate limiting is on: v2 responses carry the `RateLimit` fields. */
  readonly rateLimited: boolean
  /** The resource at this path has an ETag (its representation has an `etag` field). */
  readonly tagged: boolean
}

/**
 * Statuses any operation can answer — the spec's list for every v2 operation: malformed request,
 * credentials, permission or tenant, unknown id, method (a path that normalises onto another
 * route), slow body, validation, rate limit, internal error, store outage.
 */
const EVERY_OPERATION = [400, 401, 403, 404, 405, 408, 422, 429, 500, 503]
/**
 * And those of a method that may carry a body: too large, not JSON. Checked before the route is
 * known, so also where the operation declares no body.
 */
const WITH_BODY = [413, 415]
const BODY_METHODS: ReadonlyArray<Method> = ["post", "put", "patch", "delete"]
/**
 * The spec: v2 operations that change state or run analysis also declare 409. Every v2 method but
 * GET does one or the other (the insight query action runs an aggregation).
 */
const CHANGING = [409]

/** RFC 7396: the server reads a PATCH body sent as a JSON merge patch like one sent as JSON. */
const MERGE_PATCH = "application/merge-patch+json"

const isError = (status: string) => Number(status) >= 400

/** `teams.createTeam` → `Create team`. */
export const summaryOf = (operationId: string): string => {
  const name = operationId.split(".").at(-1) ?? operationId
  const words = name.replace(/([a-z0-9])([A-Z])/g, "$1 $2").toLowerCase()
  return words.charAt(0).toUpperCase() + words.slice(1)
}

const errorBody = (version: ApiVersion, status: number): NonNullable<Response["content"]> =>
  version === "v2"
    ? { "application/problem+json": { schema: schemaRef(PROBLEM), example: problemExample(status) } }
    : {
      "application/json": {
        schema: status === 422
          ? { anyOf: [schemaRef(HTTP_VALIDATION_ERROR), schemaRef(HTTP_ERROR)] }
          : schemaRef(HTTP_ERROR),
        example: fastApiExample(status)
      }
    }

/** Headers of every response of the version, then those the status itself calls for. */
const responseHeaders = (
  context: OperationContext,
  method: Method,
  status: number
): Record<string, Header | Reference> => {
  const names: Array<string> = [HEADERS.requestId]
  if (context.version === "v2" && context.rateLimited) {
    names.push(HEADERS.rateLimitPolicy)
    // Counted once the credential is known, so an unauthenticated request has no budget to show.
    if (status !== 401) names.push(HEADERS.rateLimit)
  }
  if (context.version === "v1") names.push(HEADERS.deprecation, HEADERS.sunset, HEADERS.link)
  if (status === 401) names.push(HEADERS.wwwAuthenticate)
  if (status === 429 || status === 503) names.push(HEADERS.retryAfter)
  if (context.version === "v2" && status === 201) names.push(HEADERS.location)
  if (context.tagged && method !== "delete" && (status === 200 || status === 201)) names.push(HEADERS.etag)
  return Object.fromEntries(names.map((name) => [name, headerRef(name)]))
}

const declares = (parameters: ReadonlyArray<Parameter | Reference>, name: string) =>
  parameters.some((parameter) => !isReference(parameter) && parameter.name.toLowerCase() === name)

/**
 * A set filter (`status__in`): the server reads the values comma-separated and the parameter
 * repeated, so the document says both, and a validating proxy built from it passes either.
 */
const LIST_DESCRIPTION = "Comma-separated (`?name=a,b`); the parameter may also repeat (`?name=a&name=b`), " +
  "and both forms combine."

const listParameter = (parameter: Parameter): Parameter =>
  parameter.in === "query" && parameter.schema["type"] === "array"
    ? {
      ...parameter,
      style: "form",
      explode: false,
      description: [parameter.description, LIST_DESCRIPTION.replaceAll("name", parameter.name)].filter(Boolean).join(" ")
    }
    : parameter

/** Where the operation answers 428 without `If-Match`, the document says it is required. */
const requiredIfMatch = (parameter: Parameter): Parameter =>
  parameter.in === "header" && parameter.name.toLowerCase() === "if-match"
    ? { ...parameter, required: true, description: IF_MATCH_REQUIRED }
    : parameter

const requestHeaders = (
  operation: Operation,
  method: Method,
  context: OperationContext
): ReadonlyArray<Parameter | Reference> => {
  const preconditionRequired = "428" in operation.responses
  const added: Array<Reference> = []
  if (context.version === "v2" && !declares(operation.parameters, "x-tenant-id")) added.push(parameterRef(PARAMETERS.tenant))
  if (!declares(operation.parameters, "x-request-id")) added.push(parameterRef(PARAMETERS.requestId))
  const conditional = method === "patch" || method === "put" || method === "delete"
  if (context.version === "v2" && context.tagged && conditional && !declares(operation.parameters, "if-match")) {
    added.push(parameterRef(preconditionRequired ? PARAMETERS.ifMatchRequired : PARAMETERS.ifMatch))
  }
  const declared = operation.parameters.map((parameter) => {
    if (isReference(parameter)) return parameter
    const listed = listParameter(parameter)
    return preconditionRequired ? requiredIfMatch(listed) : listed
  })
  return [...declared, ...added]
}

const requestBody = (body: RequestBody | undefined, method: Method): RequestBody | undefined => {
  const json: MediaType | undefined = body?.content["application/json"]
  if (body === undefined || json === undefined || method !== "patch") return body
  return { ...body, content: { ...body.content, [MERGE_PATCH]: json } }
}

export const complete = (operation: Operation, method: Method, context: OperationContext): Operation => {
  const statuses = new Set([
    ...Object.keys(operation.responses),
    ...EVERY_OPERATION.map(String),
    ...(BODY_METHODS.includes(method) ? WITH_BODY.map(String) : []),
    ...(context.version === "v2" && method !== "get" ? CHANGING.map(String) : [])
  ])
  const responses = Object.fromEntries(
    [...statuses].sort().map((status): [string, Response] => {
      const code = Number(status)
      const headers = responseHeaders(context, method, code)
      if (!isError(status)) return [status, { ...operation.responses[status]!, headers }]
      return [status, { description: errorDescription(code), headers, content: errorBody(context.version, code) }]
    })
  )
  return {
    ...operation,
    summary: operation.summary ?? summaryOf(operation.operationId),
    ...(context.version === "v1" ? { deprecated: true } : {}),
    // Both at once (one requirement object): the bearer credential and, on v2, the tenant header.
    // An operation that declares its own (accepting an invitation: the tenant alone) keeps it.
    security: operation.security.length > 0
      ? operation.security
      : [context.version === "v2" ? { [SECURITY_SCHEME]: [], [TENANT_SCHEME]: [] } : { [SECURITY_SCHEME]: [] }],
    parameters: requestHeaders(operation, method, context),
    ...(operation.requestBody === undefined ? {} : { requestBody: requestBody(operation.requestBody, method)! }),
    responses
  }
}
