/**
 * Every request body is decoded strictly: a member its schema does not name is a 422 at that
 * member (`unexpected`), at any depth, never silently dropped — a misspelt optional field
 * (`default_memer_role`) would otherwise fall back to its default without a word. Applied once, to
 * every group, by the version wrappers (`Versions.ts`), so no endpoint can forget it. Schemas
 * that accept arbitrary members (records, `details` objects) are unaffected: the rule concerns
 * only members a struct does not declare.
 */
import type { HttpApiEndpoint, HttpApiGroup } from "@effect/platform"
import { Option, Schema, SchemaAST } from "effect"

const STRICT: SchemaAST.ParseOptions = { onExcessProperty: "error" }

/**
 * The schema, decoding with excess members refused (the parser hands the option down to every
 * nested struct). Not `schema.annotations(...)`: that drops the identifier, and the documents
 * would then inline the body instead of naming its component.
 */
export const strict = (schema: Schema.Schema.Any): Schema.Schema.Any => {
  const descriptors = Object.getOwnPropertyDescriptors(schema.ast)
  descriptors.annotations.value = { ...schema.ast.annotations, [SchemaAST.ParseOptionsAnnotationId]: STRICT }
  return Schema.make(Object.create(Object.getPrototypeOf(schema.ast), descriptors))
}

/** The group with every endpoint's payload made strict; paths, headers and query are untouched. */
export const strictBodies = <Id extends string, Endpoints extends HttpApiEndpoint.HttpApiEndpoint.Any, E, R>(
  group: HttpApiGroup.HttpApiGroup<Id, Endpoints, E, R>
): HttpApiGroup.HttpApiGroup<Id, Endpoints, E, R> =>
  Object.values(group.endpoints).reduce((strictGroup, endpoint) => {
    const declared = endpoint as unknown as HttpApiEndpoint.HttpApiEndpoint.AnyWithProps
    return Option.match(declared.payloadSchema, {
      onNone: () => strictGroup,
      // `add` replaces the endpoint of the same name, keeping the group's errors and annotations.
      onSome: (payload) => strictGroup.add(declared.setPayload(strict(payload)) as any) as any
    })
  }, group)
