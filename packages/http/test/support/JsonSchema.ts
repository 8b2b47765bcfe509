/**
 * Just enough JSON Schema (the subset the OpenAPI documents use) to check a response against its
 * documented schema and to generate request values from documented schemas. Test support only:
 * the validator reports every mismatch with its path, the generator is a fast-check arbitrary.
 */
import * as fc from "fast-check"

export type Schema = { readonly [key: string]: any }

/** Resolves `#/components/...` references against a document. */
export type Resolve = (schema: Schema) => Schema

export const resolver = (document: { readonly components: unknown }): Resolve => (schema) => {
  let current = schema
  for (let hops = 0; typeof current["$ref"] === "string" && hops < 32; hops++) {
    const [, , kind, name] = (current["$ref"] as string).split("/")
    current = (document.components as any)[kind!][decodeURIComponent(name!)]
    if (current === undefined) throw new Error(`dangling reference ${schema["$ref"]}`)
  }
  return current
}

const typeOf = (value: unknown): string =>
  value === null ? "null" : Array.isArray(value) ? "array" : typeof value === "number" ? "number" : typeof value

const matchesType = (type: string, value: unknown): boolean =>
  type === "integer" ? Number.isInteger(value) : type === "number" ? typeof value === "number" : typeOf(value) === type

const FORMATS: Readonly<Record<string, RegExp>> = {
  uuid: /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i,
  "date-time": /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/i
}

/** Every way `value` fails `schema`, as `path: problem`; empty when it conforms. */
export const validate = (resolve: Resolve, schema: Schema, value: unknown, path = "$"): Array<string> => {
  const s = resolve(schema)
  const errors: Array<string> = []
  const fail = (problem: string) => errors.push(`${path}: ${problem}`)
  if ("enum" in s && !s["enum"].some((candidate: unknown) => JSON.stringify(candidate) === JSON.stringify(value))) {
    fail(`${JSON.stringify(value)} is not one of ${JSON.stringify(s["enum"])}`)
  }
  if ("const" in s && JSON.stringify(s["const"]) !== JSON.stringify(value)) fail(`is not ${JSON.stringify(s["const"])}`)
  if (Array.isArray(s["anyOf"]) && !s["anyOf"].some((member: Schema) => validate(resolve, member, value, path).length === 0)) {
    fail(`matches none of anyOf: ${s["anyOf"].map((member: Schema) => validate(resolve, member, value, path).join("; ")).join(" | ")}`)
  }
  if (Array.isArray(s["oneOf"]) && s["oneOf"].filter((member: Schema) => validate(resolve, member, value, path).length === 0).length !== 1) {
    fail("does not match exactly one of oneOf")
  }
  for (const member of s["allOf"] ?? []) errors.push(...validate(resolve, member, value, path))
  if (s["type"] !== undefined) {
    const types: Array<string> = Array.isArray(s["type"]) ? s["type"] : [s["type"]]
    if (!types.some((type) => matchesType(type, value))) {
      fail(`is ${typeOf(value)}, expected ${types.join(" | ")}`)
      return errors
    }
  }
  if (typeof value === "string") {
    if (s["minLength"] !== undefined && [...value].length < s["minLength"]) fail(`shorter than ${s["minLength"]}`)
    if (s["maxLength"] !== undefined && [...value].length > s["maxLength"]) fail(`longer than ${s["maxLength"]}`)
    if (s["pattern"] !== undefined && !new RegExp(s["pattern"], "u").test(value)) fail(`does not match ${s["pattern"]}`)
    if (s["format"] !== undefined && FORMATS[s["format"]] !== undefined && !FORMATS[s["format"]]!.test(value)) {
      fail(`is not a ${s["format"]}`)
    }
  }
  if (typeof value === "number") {
    if (s["minimum"] !== undefined && value < s["minimum"]) fail(`below ${s["minimum"]}`)
    if (s["maximum"] !== undefined && value > s["maximum"]) fail(`above ${s["maximum"]}`)
    if (s["exclusiveMinimum"] !== undefined && value <= s["exclusiveMinimum"]) fail(`not above ${s["exclusiveMinimum"]}`)
    if (s["exclusiveMaximum"] !== undefined && value >= s["exclusiveMaximum"]) fail(`not below ${s["exclusiveMaximum"]}`)
  }
  if (Array.isArray(value)) {
    if (s["minItems"] !== undefined && value.length < s["minItems"]) fail(`fewer than ${s["minItems"]} items`)
    if (s["maxItems"] !== undefined && value.length > s["maxItems"]) fail(`more than ${s["maxItems"]} items`)
    const prefix: Array<Schema> = s["prefixItems"] ?? []
    value.forEach((item, index) => {
      const itemSchema = index < prefix.length ? prefix[index] : s["items"]
      if (itemSchema !== undefined && itemSchema !== true) errors.push(...validate(resolve, itemSchema, item, `${path}[${index}]`))
    })
  }
  if (typeOf(value) === "object") {
    const record = value as Record<string, unknown>
    const properties: Record<string, Schema> = s["properties"] ?? {}
    for (const key of s["required"] ?? []) if (!(key in record)) fail(`lacks required '${key}'`)
    for (const [key, member] of Object.entries(record)) {
      if (key in properties) errors.push(...validate(resolve, properties[key]!, member, `${path}.${key}`))
      else if (s["additionalProperties"] === false) fail(`has unexpected '${key}'`)
      else if (typeof s["additionalProperties"] === "object") {
        errors.push(...validate(resolve, s["additionalProperties"], member, `${path}.${key}`))
      }
    }
  }
  return errors
}

const MAX_DEPTH = 4

const stringOf = (s: Schema): fc.Arbitrary<string> => {
  if (s["format"] === "uuid") return fc.uuid()
  if (s["format"] === "date-time") {
    return fc.date({ min: new Date("2000-01-01T00:00:00Z"), max: new Date("2100-01-01T00:00:00Z"), noInvalidDate: true })
      .map((date) => date.toISOString())
  }
  if (typeof s["pattern"] === "string") {
    try {
      return fc.stringMatching(new RegExp(s["pattern"]))
    } catch {
      // A pattern fast-check cannot invert: any string, the server must cope.
    }
  }
  return fc.string({ minLength: s["minLength"] ?? 0, maxLength: Math.min(s["maxLength"] ?? 40, 40) })
}

/** Values of `schema` (as far as the subset says: refinements it cannot express are not honoured). */
export const arbitrary = (resolve: Resolve, schema: Schema, depth = 0): fc.Arbitrary<unknown> => {
  const s = resolve(schema)
  if (Array.isArray(s["enum"])) return fc.constantFrom(...s["enum"])
  if ("const" in s) return fc.constant(s["const"])
  const union: Array<Schema> | undefined = s["anyOf"] ?? s["oneOf"]
  if (union !== undefined) {
    // Deep down a recursive schema (a filter group's `filters: [leaf | group]`), only the first
    // member: arbitraries are built eagerly, so offering the recursive one again never ends.
    const members = depth >= MAX_DEPTH ? union.slice(0, 1) : union
    return fc.oneof(...members.map((member) => arbitrary(resolve, member, depth + 1)))
  }
  const type = Array.isArray(s["type"]) ? s["type"][0] : s["type"]
  switch (type) {
    case "string":
      return stringOf(s)
    case "integer":
      return fc.integer({ min: Math.max(s["minimum"] ?? -1e6, -1e6), max: Math.min(s["maximum"] ?? 1e6, 1e6) })
    case "number":
      return fc.double({
        min: s["minimum"] ?? -1e6,
        max: s["maximum"] ?? 1e6,
        noNaN: true,
        noDefaultInfinity: true
      })
    case "boolean":
      return fc.boolean()
    case "null":
      return fc.constant(null)
    case "array": {
      const maxLength = depth >= MAX_DEPTH ? s["minItems"] ?? 0 : Math.min(s["maxItems"] ?? 3, 3)
      const minLength = Math.min(s["minItems"] ?? 0, maxLength)
      return fc.array(arbitrary(resolve, s["items"] ?? {}, depth + 1), { minLength, maxLength })
    }
    case "object": {
      const properties: Record<string, Schema> = s["properties"] ?? {}
      const required: Array<string> = s["required"] ?? []
      const keys = depth >= MAX_DEPTH ? required : Object.keys(properties)
      return fc.record(
        Object.fromEntries(keys.filter((key) => key in properties).map((key) => [key, arbitrary(resolve, properties[key]!, depth + 1)])),
        { requiredKeys: required.filter((key) => keys.includes(key)) }
      )
    }
    default:
      return fc.jsonValue({ maxDepth: 2 })
  }
}
