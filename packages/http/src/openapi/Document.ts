/**
 * The OpenAPI 3.1 documents of the API, derived from the `HttpApi` definition: one per version
 * (`/v2/openapi.json`, `/api/openapi.json`), so every route that is added to the definition is
 * documented without anyone touching this module. The platform's generator produces the
 * operations and schemas; `Operations.complete` adds what it cannot declare.
 */
import { type HttpApi, OpenApi } from "@effect/platform"
import type { Gcra } from "@costline/core"
import { type ApiVersion, versionOf } from "../api/Versions.js"
import type { DeprecationPolicy } from "../middleware/Deprecation.js"
import * as Components from "./Components.js"
import * as Examples from "./Examples.js"
import { complete } from "./Operations.js"
import { normalize } from "./Normalize.js"
import { prune } from "./Prune.js"
import { type Document, isReference, type JsonSchema, METHODS, type PathItem, type Tag } from "./Types.js"

export interface DocumentOptions {
  /** The policy in force, or undefined when rate limiting is off. */
  readonly rateLimit: Gcra.RateLimitPolicy | undefined
  readonly deprecation: DeprecationPolicy
  /** The organization the request examples are for (default `demo`). */
  readonly exampleTenant?: string | undefined
}

export interface Documents {
  readonly v2: Document
  readonly v1: Document
}

/** The spec: "its description version is 0.1.0" (`info.version` is the document's version, not the API's). */
export const DESCRIPTION_VERSION = "0.1.0"

const describeInfo = (version: ApiVersion, options: DocumentOptions): Document["info"] => {
  const license = { name: "Apache-2.0", identifier: "Apache-2.0" }
  if (version === "v2") {
    return {
      title: "costline cost-monitoring API (v2)",
      version: DESCRIPTION_VERSION,
      license,
      description: "Audit log export, insights, teams, SSO groups, user roles, usage groups, ticket links and " +
        "warehouse credentials. Every operation is for the organization named in `x-tenant-id` and needs a bearer " +
        "token of it (an API key or a user session). Lists are read page by page with `page_token`; updates send " +
        "the resource's `ETag` back in `If-Match`; errors are `application/problem+json` with a stable `code`."
    }
  }
  return {
    title: "costline cost-monitoring API (v1, deprecated)",
    // The spec names one description version (0.1.0) and no other: v1 is described by the same
    // release of the service, so its document carries the same one. The path says which API it is.
    version: DESCRIPTION_VERSION,
    license,
    description: `Deprecated since ${options.deprecation.deprecatedAt.toISOString().slice(0, 10)}; served until ` +
      `${options.deprecation.sunsetAt.toISOString().slice(0, 10)}. Every response names its v2 successor in ` +
      "`Link` where there is one. Errors are FastAPI-style `{\"detail\": ...}` bodies."
  }
}

/** The schema a `$ref` names in the generated components (one level is all the generator emits). */
const resolve = (schemas: Document["components"]["schemas"], schema: JsonSchema): JsonSchema => {
  const ref = schema["$ref"]
  if (typeof ref !== "string") return schema
  return schemas[ref.replace("#/components/schemas/", "")] ?? schema
}

/** A resource has an ETag when one of the path's successful responses has an `etag` field. */
const isTagged = (item: PathItem, schemas: Document["components"]["schemas"]): boolean =>
  METHODS.some((method) =>
    Object.entries(item[method]?.responses ?? {}).some(([status, response]) => {
      if (!status.startsWith("2")) return false
      return Object.values(response.content ?? {}).some(({ schema }) => {
        const properties = resolve(schemas, schema)["properties"]
        return typeof properties === "object" && properties !== null && "etag" in properties
      })
    })
  )

const tagsOf = (paths: Document["paths"], declared: ReadonlyArray<Tag>): ReadonlyArray<Tag> => {
  const used = new Set(Object.values(paths).flatMap((item) => METHODS.flatMap((method) => item[method]?.tags ?? [])))
  return [...used].map((name) => {
    const tag = declared.find((candidate) => candidate.name === name)
    return { name, description: tag?.description ?? `Operations of the \`${name}\` group.` }
  })
}

const forVersion = (generated: Document, version: ApiVersion, options: DocumentOptions): Document => {
  const { schemas } = generated.components
  const paths = Object.fromEntries(
    Object.entries(generated.paths)
      .filter(([path]) => versionOf(path) === version)
      .map(([path, item]): [string, PathItem] => {
        const context = { version, rateLimited: options.rateLimit !== undefined, tagged: isTagged(item, schemas) }
        return [path, Object.fromEntries(
          METHODS.flatMap((method) => item[method] === undefined ? [] : [[method, complete(item[method], method, context)]])
        )]
      })
  )
  return prune(normalize({
    openapi: "3.1.0",
    info: describeInfo(version, options),
    // Relative to the document (`/cost/v2/openapi.json` → `/cost`): right under any base path.
    servers: [{ url: "..", description: "This server" }],
    security: [
      version === "v2"
        ? { [Components.SECURITY_SCHEME]: [], [Components.TENANT_SCHEME]: [] }
        : { [Components.SECURITY_SCHEME]: [] }
    ],
    tags: tagsOf(paths, generated.tags),
    paths,
    components: {
      schemas: { ...schemas, ...Components.errorSchemas },
      securitySchemes: version === "v2"
        ? Components.securitySchemes
        : { [Components.SECURITY_SCHEME]: Components.securitySchemes[Components.SECURITY_SCHEME]! },
      headers: Components.headers,
      parameters: Components.parameters
    }
  }))
}

export const make = (api: HttpApi.HttpApi.Any, options: DocumentOptions): Documents => {
  // The generator's types describe less than it emits; `Document` is the superset both share.
  const generated = OpenApi.fromApi(api as HttpApi.HttpApi.AnyWithProps) as unknown as Document
  const examples = { tenant: options.exampleTenant ?? Examples.DEFAULT_TENANT }
  return {
    v2: Examples.apply(forVersion(generated, "v2", options), examples),
    v1: Examples.apply(forVersion(generated, "v1", options), examples)
  }
}

export { isReference }
