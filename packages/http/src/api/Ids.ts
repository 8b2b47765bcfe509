/**
 * Path ids are taken as any text: an id that is not even well formed names nothing, so it is a
 * 404 like any unknown id, never a 422.
 */
import { NotFound } from "@costline/core"
import { Effect, Schema } from "effect"

export const parseId = <A>(schema: Schema.Schema<A, string>, resource: string) => {
  const is = Schema.is(schema)
  return (raw: string): Effect.Effect<A, NotFound> =>
    is(raw) ? Effect.succeed(raw) : Effect.fail(new NotFound({ resource, id: raw }))
}
