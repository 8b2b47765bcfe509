/**
 * What lets `Auth` keep verified API keys in memory without keeping a revoked one working: the
 * store's word on whether anything may have changed since a key was verified. A store that can
 * tell cheaply provides it (SQLite: the file's change counter plus this connection's own writes);
 * without it nothing is cached and every request reads its key. See docs/performance.md,
 * "Verified keys and revocation".
 */
import { Context, Duration } from "effect"

/**
 * @since 0.1.0
 * @category tags
 */
export class CredentialChanges extends Context.Tag("@costline/core/CredentialChanges")<
  CredentialChanges,
  {
    /**
     * A stamp of the store's state, read synchronously on every request: a verification is reused
     * only while the stamp is the one it was made under, so it must move with every commit that
     * could revoke a credential, from any process. `undefined` when the store cannot tell right
     * now: then nothing is reused.
     */
    readonly stamp: () => number | undefined
  }
>() {}

/**
 * The longest a verification is reused, whatever the stamp says. Expiry is checked on every
 * request regardless, against the key's `expires_at`.
 * @since 0.1.0
 * @category constants
 */
export const VERIFIED_KEY_MAX_AGE = Duration.seconds(5)
