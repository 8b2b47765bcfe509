/**
 * The compiled encoder equals `Schema.encode` of every success schema costline declares, for
 * arbitrary values of each, and gives up (so that `Schema.encode` answers) wherever
 * `Schema.encode` fails.
 */
import type { HttpApiEndpoint, HttpApiGroup } from "@effect/platform"
import { HttpApiSchema } from "@effect/platform"
import { Audit, CanonicalTime } from "@costline/core"
import { describe, expect, it } from "@effect/vitest"
import { Arbitrary, DateTime, Effect, Either, Exit, FastCheck, Schema } from "effect"
import { CostlineApi } from "../../src/api/Api.js"
import { AuditLogPage } from "../../src/api/audit/Api.js"
import * as CompiledEncoder from "../../src/api/CompiledEncoder.js"
import { InsightPage } from "../../src/api/insights/Api.js"

const RUNS = { numRuns: 60 }

/** Every JSON success schema of every endpoint, named by its endpoint. */
const successSchemas = (): Array<readonly [string, Schema.Schema.Any]> => {
  const found: Array<readonly [string, Schema.Schema.Any]> = []
  for (const group of Object.values(CostlineApi.groups) as unknown as Array<HttpApiGroup.HttpApiGroup.AnyWithProps>) {
    for (const endpoint of Object.values(group.endpoints) as Array<HttpApiEndpoint.HttpApiEndpoint.AnyWithProps>) {
      const schemas = new Set<Schema.Schema.Any>()
      HttpApiSchema.deunionize(schemas, endpoint.successSchema)
      for (const schema of schemas) {
        if (HttpApiSchema.isVoid(schema.ast) || HttpApiSchema.getEncoding(schema.ast).kind !== "Json") continue
        found.push([`${group.identifier}.${endpoint.name}`, schema])
      }
    }
  }
  return found
}

const declared = (schema: Schema.Schema.Any) => Schema.encodeEither(schema as Schema.Schema<unknown, unknown>)

const sameAsDeclared = (schema: Schema.Schema.Any, value: unknown) => {
  const expected = declared(schema)(value)
  const compiled = CompiledEncoder.encodeSuccess(schema)(value)
  if (Either.isRight(expected)) {
    // Never stricter on a value of the schema's type: it is answered by the compiled functions.
    expect(compiled).toStrictEqual(expected.right)
  } else {
    expect(compiled).toBeUndefined()
  }
}

describe("CompiledEncoder", () => {
  const schemas = successSchemas()

  it("covers the API's success schemas, the pages of records among them", () => {
    const names = schemas.map(([name]) => name)
    expect(names.length).toBeGreaterThanOrEqual(50)
    expect(names).toEqual(expect.arrayContaining(["audit.exportAuditLogs", "insights.listInsights", "insights.getInsight"]))
  })

  it.each(schemas.map(([name, schema]) => ({ name, schema })))(
    "$name: equals Schema.encode for arbitrary values of its type",
    ({ schema }) =>
      FastCheck.assert(FastCheck.property(Arbitrary.make(schema), (value) => sameAsDeclared(schema, value)), RUNS)
  )

  it.each(schemas.map(([name, schema]) => ({ name, schema })))(
    "$name: gives up wherever Schema.encode fails (a field replaced by anything)",
    ({ schema }) =>
      FastCheck.assert(
        FastCheck.property(Arbitrary.make(schema), FastCheck.string(), FastCheck.anything(), (value, key, replacement) => {
          const fields = value !== null && typeof value === "object" && !Array.isArray(value) ? Object.keys(value) : []
          const mutated = fields.length === 0
            ? replacement
            : { ...value, [fields[key.length % fields.length]!]: replacement }
          sameAsDeclared(schema, mutated)
        }),
        RUNS
      )
  )

  it("encodes a domain record into the exported shape, and an empty page", () => {
    const at = DateTime.unsafeMake("2026-11-26T05:00:00.123Z")
    const record = new Audit.AuditRecord({
      id: "0b6c1c5e-6a5b-4a4e-9a43-5d8f0f5f6a11" as never,
      organization_id: "org" as never,
      changed_at: at,
      kind: "resource",
      resource: "insights",
      event_type: null,
      table_name: "insights",
      record_id: "r1",
      operation: "update",
      status: "success",
      changed_by: "key_1",
      changed_by_type: "api_key",
      old_values: { status: "open" },
      new_values: null,
      request_id: null
    } as never)
    const encoded = CompiledEncoder.encodeSuccess(AuditLogPage)({ items: [record], page_token: "t", row_count: 1 })
    // Fields in the schema's order, without the tenant, the timestamp as ISO text.
    expect(encoded).toStrictEqual(Schema.encodeSync(AuditLogPage)({ items: [record], page_token: "t", row_count: 1 }))
    expect(Object.keys((encoded as { items: Array<object> }).items[0]!)).not.toContain("organization_id")
    expect(Effect.runSyncExit(CompiledEncoder.encoder(InsightPage)({ items: [], page_token: null, row_count: 0 }))).toStrictEqual(
      Exit.succeed({ items: [], page_token: null, row_count: 0 })
    )
  })
})

describe("CompiledEncoder's timestamps", () => {
  const encode = CompiledEncoder.encodeSuccess(Schema.Struct({ at: Schema.DateTimeUtc }))

  it("writes an instant's kept canonical text as it is, and formats any other", () => {
    // The text is written unread: `CanonicalTime.make`'s callers prove it is formatIso's (store-sql's
    // reader keeps only such text). A forged one shows it is the text, not the instant, written.
    expect(encode({ at: CanonicalTime.make(0, "kept as it is") })).toStrictEqual({ at: "kept as it is" })
    expect(encode({ at: CanonicalTime.make(1_764_144_000_123) })).toStrictEqual({ at: "2025-11-26T08:00:00.123Z" })
    expect(encode({ at: DateTime.unsafeMake(1_764_144_000_123) })).toStrictEqual({ at: "2025-11-26T08:00:00.123Z" })
  })

  it("equals Schema.encode for instants made with their canonical text", () =>
    FastCheck.assert(
      FastCheck.property(FastCheck.integer({ min: -8_639_000_000_000_000, max: 8_639_000_000_000_000 }), (millis) => {
        const value = { at: CanonicalTime.make(millis, DateTime.formatIso(DateTime.unsafeMake(millis))) }
        expect(encode(value)).toStrictEqual(Schema.encodeSync(Schema.Struct({ at: Schema.DateTimeUtc }))(value))
      }),
      { numRuns: 2000 }
    ))
})

describe("CompiledEncoder's JSON objects (Record<string, unknown>)", () => {
  const schema = Schema.Struct({ values: Schema.NullOr(Schema.Record({ key: Schema.String, value: Schema.Unknown })) })
  const encode = CompiledEncoder.encodeSuccess(schema)
  const sameJson = (value: unknown) => {
    const expected = Schema.encodeSync(schema)(value as never)
    expect(encode(value)).toStrictEqual(expected)
    expect(JSON.stringify(encode(value))).toBe(JSON.stringify(expected))
  }

  it("answers a plain object as it is: the copy Schema.encode makes has the same keys, order and JSON", () => {
    const values = JSON.parse("{\"b\":1,\"a\":{\"c\":[1,\"x\",null]},\"2\":true,\"1\":-0.5e-7}")
    expect((encode({ values }) as { values: unknown }).values).toBe(values)
    sameJson({ values })
  })

  it("copies an object with an own __proto__ key (dropped by the copy, as Schema.encode drops it), a class instance or a null-prototype object", () => {
    const withProto = JSON.parse("{\"a\":1,\"__proto__\":{\"x\":1},\"b\":2}")
    expect((encode({ values: withProto }) as { values: unknown }).values).not.toBe(withProto)
    sameJson({ values: withProto })
    expect(JSON.stringify(encode({ values: withProto }))).toBe("{\"values\":{\"a\":1,\"b\":2}}")
    class Values {
      a = 1
      toJSON() {
        return "from the class"
      }
    }
    sameJson({ values: new Values() })
    const bare = Object.assign(Object.create(null), { a: 1 })
    expect((encode({ values: bare }) as { values: unknown }).values).not.toBe(bare)
    sameJson({ values: bare })
    expect(encode({ values: [1] })).toBeUndefined()
  })
})

describe("CompiledEncoder's UUID check", () => {
  const pattern = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/i
  const uuidLike = FastCheck.uuid().chain((uuid) =>
    FastCheck.tuple(FastCheck.nat(40), FastCheck.fullUnicode(), FastCheck.boolean()).map(([at, char, upper]) => {
      const text = upper ? uuid.toUpperCase() : uuid
      // One character replaced, dropped or added: near misses of every kind.
      return at % 3 === 0 ? text.slice(0, at) + char + text.slice(at + 1) : at % 3 === 1 ? text.slice(0, at) + text.slice(at + 1) : text.slice(0, at) + char + text.slice(at)
    }))

  it("agrees with Schema.UUID's pattern on UUIDs, near misses and any text", () => {
    FastCheck.assert(
      FastCheck.property(FastCheck.oneof(FastCheck.uuid(), uuidLike, FastCheck.string(), FastCheck.fullUnicodeString({ minLength: 36, maxLength: 36 })), (text) => {
        expect(CompiledEncoder.isUuidText(text)).toBe(pattern.test(text))
        expect(Schema.is(Schema.UUID)(text)).toBe(pattern.test(text))
      }),
      { numRuns: 20_000 }
    )
    expect(CompiledEncoder.isUuidText("0B9E5D3A-1F2C-4D5E-8F90-A1B2C3D4E5F6")).toBe(true)
    expect(CompiledEncoder.isUuidText(42)).toBe(false)
  })

  it("decides for Schema.UUID, branded or not, and gives up where it does", () => {
    const Id = Schema.UUID.pipe(Schema.brand("Id"))
    const Record = Schema.Struct({ id: Id, other: Schema.UUID })
    const good = { id: "0b9e5d3a-1f2c-4d5e-8f90-a1b2c3d4e5f6", other: "0B9E5D3A-1F2C-4D5E-8F90-A1B2C3D4E5F6" }
    sameAsDeclared(Record, good)
    sameAsDeclared(Record, { ...good, id: "0b9e5d3a-1f2c-4d5e-8f90-a1b2c3d4e5f" })
    sameAsDeclared(Record, { ...good, other: "0b9e5d3a_1f2c-4d5e-8f90-a1b2c3d4e5f6" })
  })
})

