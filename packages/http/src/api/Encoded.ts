/**
 * A success answered by the handler itself, for an endpoint with several success schemas (an
 * insight or its 304): the group's success encoder (`Group.successEncoder`) covers only endpoints
 * with one, so such a handler encodes its JSON success with the same compiled encoder
 * (`CompiledEncoder`) and returns the response, which the group passes through.
 */
import type { HttpServerResponse } from "@effect/platform"
import { Effect, type Schema } from "effect"
import * as CompiledEncoder from "./CompiledEncoder.js"
import * as JsonBody from "./JsonBody.js"

/**
 * A 200 answer of `schema`, encoded as `Schema.encode` would. A value the handler built that does
 * not encode is a broken invariant: a defect (an unexpected 500), as the platform answers it.
 */
export const ok = <A, I>(schema: Schema.Schema<A, I>) => {
  const encodeCompiled = CompiledEncoder.encodeSuccess(schema)
  const encode = CompiledEncoder.encoder(schema)
  return (value: A): Effect.Effect<HttpServerResponse.HttpServerResponse> => {
    const encoded = encodeCompiled(value)
    // `undefined`: the compiled functions gave up (or the success is `undefined`): `Schema.encode` answers.
    return encoded !== undefined
      ? Effect.sync(() => JsonBody.unsafeJson(encoded))
      : Effect.orDie(Effect.map(encode(value), (encoded) => JsonBody.unsafeJson(encoded)))
  }
}
