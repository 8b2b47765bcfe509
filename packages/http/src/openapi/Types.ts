/**
 * The part of OpenAPI 3.1 the documents use. The platform's own types describe only what
 * `OpenApi.fromApi` emits (no response headers, no examples, no shared parameters), and the
 * documents add exactly those.
 */
export type JsonSchema = { readonly [key: string]: unknown }

// A type alias, not an interface, so that a reference is also a `JsonSchema`.
export type Reference = { readonly $ref: string }

export interface Header {
  readonly description: string
  readonly schema: JsonSchema
  readonly required?: boolean
  readonly example?: unknown
}

export interface MediaType {
  readonly schema: JsonSchema
  readonly example?: unknown
}

export interface Response {
  readonly description: string
  readonly headers?: Readonly<Record<string, Header | Reference>>
  readonly content?: Readonly<Record<string, MediaType>>
}

export interface Parameter {
  readonly name: string
  readonly in: "query" | "header" | "path" | "cookie"
  readonly required: boolean
  readonly schema: JsonSchema
  readonly description?: string
  readonly example?: unknown
  readonly style?: "form" | "simple"
  readonly explode?: boolean
}

export interface RequestBody {
  readonly content: Readonly<Record<string, MediaType>>
  readonly required: boolean
}

export interface Operation {
  readonly operationId: string
  readonly summary?: string
  readonly description?: string
  readonly tags: ReadonlyArray<string>
  readonly deprecated?: boolean
  readonly security: ReadonlyArray<Readonly<Record<string, ReadonlyArray<string>>>>
  readonly parameters: ReadonlyArray<Parameter | Reference>
  readonly requestBody?: RequestBody
  readonly responses: Readonly<Record<string, Response>>
}

export const METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"] as const
export type Method = typeof METHODS[number]

export type PathItem = { readonly [M in Method]?: Operation }

export interface Tag {
  readonly name: string
  readonly description?: string
}

export interface Components {
  readonly schemas: Readonly<Record<string, JsonSchema>>
  readonly securitySchemes: Readonly<Record<string, JsonSchema>>
  readonly headers?: Readonly<Record<string, Header>>
  readonly parameters?: Readonly<Record<string, Parameter>>
}

export interface Document {
  readonly openapi: "3.1.0"
  readonly info: {
    readonly title: string
    readonly version: string
    readonly summary?: string
    readonly description?: string
    readonly license?: { readonly name: string; readonly identifier?: string; readonly url?: string }
  }
  readonly servers?: ReadonlyArray<{ readonly url: string; readonly description?: string }>
  readonly security: ReadonlyArray<Readonly<Record<string, ReadonlyArray<string>>>>
  readonly tags: ReadonlyArray<Tag>
  readonly paths: Readonly<Record<string, PathItem>>
  readonly components: Components
}

/** Every operation of a document with its path and method, in document order. */
export const operations = (document: Document): ReadonlyArray<{
  readonly path: string
  readonly method: Method
  readonly operation: Operation
}> =>
  Object.entries(document.paths).flatMap(([path, item]) =>
    METHODS.flatMap((method) => item[method] === undefined ? [] : [{ path, method, operation: item[method] }])
  )

export const isReference = (value: object): value is Reference => "$ref" in value
