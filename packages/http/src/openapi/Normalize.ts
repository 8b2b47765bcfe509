/**
 * Plain JSON Schema that client generators understand, from what Effect's JSON Schema generator
 * emits: the date-time component gets `format: date-time`; Effect's built-in titles and
 * descriptions ("maxLength(320)", "a string to be decoded into a DateTime.Utc") and its `$id`
 * markers are dropped; an `allOf` that only adds a `pattern` or wraps one `$ref` is folded into
 * its parent (generators read `{allOf: [{pattern}]}` as `unknown`). Pure: document in, document out.
 */
import type { Document, JsonSchema, Parameter, Reference } from "./Types.js"
import { isReference } from "./Types.js"

/** Components Effect names after its own schemas, and the string format each one is. */
const FORMATS: Readonly<Record<string, { readonly format: string; readonly description: string }>> = {
  DateTimeUtc: { format: "date-time", description: "An RFC 3339 date-time in UTC, e.g. `2024-05-01T12:00:00.000Z`." },
  Date: { format: "date-time", description: "An RFC 3339 date-time, e.g. `2024-05-01T12:00:00.000Z`." }
}

/**
 * Effect describes its built-in schemas as "a …"/"an …" ("a non-negative number", "an array of
 * at least 1 item(s)"); the documents' own descriptions are sentences.
 */
const isBuiltInDescription = (text: unknown) => typeof text === "string" && /^an? /.test(text)

/** Effect titles its refinements after themselves: `int`, `maxLength(320)`, `between(1, 10000)`, `unknown`. */
const isBuiltInTitle = (text: unknown) =>
  typeof text === "string" && (/^[a-z][A-Za-z]*(\(.*\))?$/.test(text) || text.startsWith("`${"))

/** `$id`s Effect sets on its constant schemas (`/schemas/unknown`): a base URI would move every `$ref` under it. */
const isBuiltInId = (id: unknown) => typeof id === "string" && id.startsWith("/schemas/")

/** Both patterns must match: lookaheads at the start keep each one's own anchors. */
const bothPatterns = (first: string, second: string) => `^(?=[\\s\\S]*?(?:${first}))(?=[\\s\\S]*?(?:${second}))`

const SUBSCHEMA_MAPS = ["properties", "patternProperties", "$defs", "dependentSchemas"] as const
const SUBSCHEMA_LISTS = ["allOf", "anyOf", "oneOf", "prefixItems"] as const
const SUBSCHEMAS = ["items", "additionalProperties", "not", "contentSchema", "propertyNames", "if", "then", "else"] as const

const isSchemaObject = (value: unknown): value is JsonSchema =>
  typeof value === "object" && value !== null && !Array.isArray(value)

/** Folds the `allOf` members that add nothing a parent cannot say itself. */
const foldAllOf = (schema: Record<string, unknown>): Record<string, unknown> => {
  const members = schema["allOf"]
  if (!Array.isArray(members)) return schema
  const { allOf: _, ...rest } = schema
  let out: Record<string, unknown> = rest
  const kept: Array<unknown> = []
  for (const member of members as Array<Record<string, unknown>>) {
    const keys = Object.keys(member)
    if (keys.length === 1 && typeof member["pattern"] === "string") {
      out = {
        ...out,
        pattern: typeof out["pattern"] === "string" ? bothPatterns(out["pattern"], member["pattern"]) : member["pattern"]
      }
    } else if (members.length === 1 && !("$ref" in out)) {
      // `{allOf: [X], description}` is how Effect annotates a reference: OpenAPI 3.1 allows siblings.
      out = { ...member, ...out }
    } else {
      kept.push(member)
    }
  }
  return kept.length === 0 ? out : { ...out, allOf: kept }
}

export const schema = (input: JsonSchema): JsonSchema => {
  const out: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(input)) {
    if (key === "title" && isBuiltInTitle(value)) continue
    if (key === "description" && isBuiltInDescription(value)) continue
    if (key === "$id" && isBuiltInId(value)) continue
    if ((SUBSCHEMA_MAPS as ReadonlyArray<string>).includes(key) && isSchemaObject(value)) {
      out[key] = Object.fromEntries(
        Object.entries(value).map(([name, member]) => [name, isSchemaObject(member) ? schema(member) : member])
      )
    } else if ((SUBSCHEMA_LISTS as ReadonlyArray<string>).includes(key) && Array.isArray(value)) {
      out[key] = value.map((member) => isSchemaObject(member) ? schema(member) : member)
    } else if ((SUBSCHEMAS as ReadonlyArray<string>).includes(key) && isSchemaObject(value)) {
      out[key] = schema(value)
    } else {
      out[key] = value
    }
  }
  return foldAllOf(out)
}

const component = (name: string, input: JsonSchema): JsonSchema => {
  const normalized = schema(input)
  const format = FORMATS[name]
  return format === undefined ? normalized : { ...normalized, type: "string", ...format }
}

/** Every `schema` inside operations: parameters, request and response bodies, headers. */
const inPaths = (value: unknown, key?: string): unknown => {
  if (Array.isArray(value)) return value.map((item) => inPaths(item))
  if (!isSchemaObject(value)) return value
  if (key === "schema") return schema(value)
  return Object.fromEntries(Object.entries(value).map(([name, member]) => [name, inPaths(member, name)]))
}

/** A parameter's description that only repeats Effect's description of its schema. */
const parameter = (input: Parameter | Reference): Parameter | Reference => {
  if (isReference(input) || !isBuiltInDescription(input.description)) return input
  const { description: _, ...rest } = input
  return rest
}

export const normalize = (document: Document): Document => {
  const paths = inPaths(document.paths) as Document["paths"]
  return {
    ...document,
    paths: Object.fromEntries(Object.entries(paths).map(([path, item]) => [
      path,
      Object.fromEntries(Object.entries(item).map(([method, operation]) => [
        method,
        { ...operation, parameters: operation.parameters.map(parameter) }
      ]))
    ])),
    components: {
      ...document.components,
      schemas: Object.fromEntries(
        Object.entries(document.components.schemas).map(([name, member]) => [name, component(name, member)])
      )
    }
  }
}
