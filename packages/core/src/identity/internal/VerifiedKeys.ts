/**
 * API keys read from the store, by token hash, reused while the store's credential stamp is
 * unchanged and for at most VERIFIED_KEY_MAX_AGE: the key lookup is most of what authenticating
 * costs. The stamp is read *before* the store is, so a revocation committed in between leaves the
 * entry under the older stamp, and the next request reads the key again.
 */
import { Duration } from "effect"
import type { CredentialChanges } from "../CredentialChanges.js"
import { VERIFIED_KEY_MAX_AGE } from "../CredentialChanges.js"
import type { ApiKey } from "../Domain.js"

/** Verified keys kept at most; past it the cache starts over (keys are read again on use). */
const MAX_CACHED_KEYS = 10_000

export interface Verified {
  readonly key: ApiKey
  /** The stamp the key was read under. */
  readonly stamp: number
  readonly verifiedAtMs: number
  /** `last_used_at` as this process last recorded it (the cached row's is not updated). */
  lastUsedAtMs: number | null
}

export interface Lookup {
  /** The stamp to remember a key read now under; `undefined`: do not remember it. */
  readonly stamp: number | undefined
  readonly verified: Verified | undefined
}

export const make = (changes: CredentialChanges["Type"] | undefined, maxAge: Duration.Duration = VERIFIED_KEY_MAX_AGE) => {
  const cache = new Map<string, Verified>()
  const maxAgeMs = Duration.toMillis(maxAge)
  return {
    lookup: (hash: string, nowMs: number): Lookup => {
      const stamp = changes?.stamp()
      if (stamp === undefined) return { stamp, verified: undefined }
      const verified = cache.get(hash)
      if (verified === undefined) return { stamp, verified }
      if (verified.stamp === stamp && nowMs - verified.verifiedAtMs < maxAgeMs && nowMs >= verified.verifiedAtMs) {
        return { stamp, verified }
      }
      cache.delete(hash)
      return { stamp, verified: undefined }
    },
    remember: (hash: string, key: ApiKey, stamp: number | undefined, nowMs: number): Verified => {
      const lastUsedAtMs = key.last_used_at === null ? null : key.last_used_at.epochMillis
      const verified: Verified = { key, stamp: stamp ?? -1, verifiedAtMs: nowMs, lastUsedAtMs }
      if (stamp === undefined) return verified
      if (cache.size >= MAX_CACHED_KEYS) cache.clear()
      cache.set(hash, verified)
      return verified
    }
  }
}
