/**
 * Counting a store's API-key lookups, which is how a test of the verified-key cache (core's Auth)
 * tells a key read from the store from one reused.
 */
import { CredentialChanges, IdentityRepo } from "@costline/core"
import { Context, Effect, Layer } from "effect"

export interface CountedKeyReads<E, R> {
  /** The store's `ApiKeysRepo` with `findByHash` counted; merge it over the store. */
  readonly layer: Layer.Layer<IdentityRepo.ApiKeysRepo, E, R>
  /** Lookups so far. */
  readonly reads: () => number
}

export const countKeyReads = <E, R>(store: Layer.Layer<IdentityRepo.ApiKeysRepo, E, R>): CountedKeyReads<E, R> => {
  let reads = 0
  const layer = Layer.effect(
    IdentityRepo.ApiKeysRepo,
    Effect.map(IdentityRepo.ApiKeysRepo, (repo) =>
      IdentityRepo.ApiKeysRepo.of({
        ...repo,
        findByHash: (hash) =>
          Effect.suspend(() => {
            reads++
            return repo.findByHash(hash)
          })
      }))
  ).pipe(Layer.provide(store))
  return { layer, reads: () => reads }
}

/** The credential stamp of a built store, or undefined when it provides none (or cannot read it). */
export const credentialStamp = (context: Context.Context<never>) => (): number | undefined => {
  const changes = Context.getOption(context, CredentialChanges.CredentialChanges)
  return changes._tag === "Some" ? changes.value.stamp() : undefined
}
