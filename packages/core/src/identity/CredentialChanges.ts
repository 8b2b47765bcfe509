/**
 * What lets `Auth` keep verified API keys in memory without keeping a revoked one working: the
 * store's word on whether a credential may have changed since a key was verified. A store that
 * can tell cheaply provides it (SQLite: the database's change counter; Postgres: `LISTEN` on the
 * channel every revocation notifies); without it nothing is cached and every request looks its
 * key up. See docs/performance.md, "Verified keys".
 */
import { Context, Duration } from "effect"

export class CredentialChanges extends Context.Tag("@costline/core/CredentialChanges")<
  CredentialChanges,
  {
    /**
     * A stamp of the credentials' state, read synchronously on every request: a verification is
     * reused only while the stamp is the one it was made under. `undefined` when the store cannot
     * tell right now (e.g. its listening connection is down): then nothing is reused.
     */
    readonly stamp: () => number | undefined
    /** Called once this process has revoked a credential, so its own next request sees it. */
    readonly changed: () => void
  }
>() {}

/**
 * The longest a verification is reused, whatever the stamp says: the bound on a revocation whose
 * notice was lost (see docs/performance.md). Expiry is checked on every request regardless.
 */
export const VERIFIED_KEY_MAX_AGE = Duration.seconds(5)

/** Postgres: the channel every API-key revocation notifies, in the revoking transaction. */
export const CREDENTIALS_CHANNEL = "costline_credentials"
