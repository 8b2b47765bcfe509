/**
 * The key check: proof, kept in the store, of which master keys sealed its secrets. Without it a
 * mistyped `COSTLINE_SECRET_KEY` goes unnoticed: the server starts, and credentials set meanwhile
 * are sealed under a key nobody keeps, beside older ones that no longer open.
 *
 * The check is a known text sealed (AES-256-GCM envelope, like every secret) under a master key;
 * one row per key id. `verify` opens every stored check with the configured keys: a check that
 * does not open means the configured key with that id is not the one that sealed before
 * (`wrong_key`), a check whose key id is not configured means secrets sealed under it would be
 * lost (`key_not_configured`). The current key's check is stored on first use.
 *
 * Rotation: configure the new key first and the old one after it, then `reseal` re-wraps every
 * stored credential under the new key, in batches, and only then keeps the new key's check
 * alone; after that the old key may be removed.
 */
import { Context, Effect, Option, Schema } from "effect"
import type { DwAccountId } from "../dwaccounts/Domain.js"
import { DwAccountsRepo, type SealedCredentials } from "../dwaccounts/Repo.js"
import type { StoreUnavailable } from "../shared/Errors.js"
import type { OrganizationId } from "../shared/Ids.js"
import { Transactor } from "../shared/Transactor.js"
import type { SealedSecret, SecretUnreadable } from "./Envelope.js"
import { Secrets, type SecretsService } from "./Secrets.js"

/**
 * @since 0.1.0
 * @category tags
 */
export class SecretKeyCheckRepo extends Context.Tag("@costline/core/SecretKeyCheckRepo")<
  SecretKeyCheckRepo,
  {
    /** Every stored check, one per master key id. */
    readonly list: Effect.Effect<ReadonlyArray<SealedSecret>, StoreUnavailable>
    /** Stores `check` unless a check for its key id exists (then that one is kept). */
    readonly insertIfAbsent: (check: SealedSecret) => Effect.Effect<void, StoreUnavailable>
    /** Leaves `check` as the only one: after a reseal, no secret depends on another key. */
    readonly replaceAll: (check: SealedSecret) => Effect.Effect<void, StoreUnavailable>
  }
>() {}

/**
 * @since 0.1.0
 * @category models
 */
export type RefusalReason = "wrong_key" | "key_not_configured"

/**
 * The configured master keys do not match the store's secrets. Names the key id, never a key.
 * @since 0.1.0
 * @category errors
 */
export class SecretKeyRefused extends Schema.TaggedError<SecretKeyRefused>()("SecretKeyRefused", {
  key_id: Schema.String,
  reason: Schema.Literal("wrong_key", "key_not_configured")
}) {
  override get message() {
    return this.reason === "wrong_key"
      ? `the configured master key '${this.key_id}' is not the one that sealed this database's secrets ` +
        "(check COSTLINE_SECRET_KEY / COSTLINE_SECRET_KEYS)"
      : `this database's secrets were sealed under master key '${this.key_id}', which is not configured; ` +
        `add it to COSTLINE_SECRET_KEYS (after the current key) and run 'costline secrets reseal' before removing it`
  }
}

const CHECK_TEXT = "costline master key check v1"
const CHECK_AAD = { tenant: "costline.secret-key-check", recordId: "check" }

const checkOpens = (secrets: SecretsService, check: SealedSecret) =>
  secrets.open(check, CHECK_AAD).pipe(
    Effect.flatMap((text) =>
      text === CHECK_TEXT ? Effect.void : Effect.fail(new SecretKeyRefused({ key_id: check.key_id, reason: "wrong_key" }))
    ),
    Effect.catchTag("SecretUnreadable", (error) =>
      Effect.fail(
        new SecretKeyRefused({
          key_id: check.key_id,
          reason: error.reason === "unknown_key" ? "key_not_configured" : "wrong_key"
        })
      ))
  )

/** A fresh check under the current master key (its `key_id` is the current key's id). */
const currentCheck = Effect.flatMap(Secrets, (secrets) => secrets.seal(CHECK_TEXT, CHECK_AAD))

/**
 * Fails with SecretKeyRefused unless the configured keys open every stored check; stores the
 * current key's check on first use. Run before anything seals or opens a secret.
 * @since 0.1.0
 * @category utils
 */
export const verify: Effect.Effect<void, SecretKeyRefused | StoreUnavailable, Secrets | SecretKeyCheckRepo> = Effect
  .gen(function*() {
    const secrets = yield* Secrets
    const repo = yield* SecretKeyCheckRepo
    const current = yield* currentCheck
    const stored = yield* repo.list
    yield* Effect.forEach(stored, (check) => checkOpens(secrets, check), { discard: true })
    if (stored.some((check) => check.key_id === current.key_id)) return
    yield* repo.insertIfAbsent(current)
    // Another process may have stored a check for this key id meanwhile, under a different key.
    const mine = (yield* repo.list).filter((check) => check.key_id === current.key_id)
    yield* Effect.forEach(mine, (check) => checkOpens(secrets, check), { discard: true })
  })

/**
 * @since 0.1.0
 * @category models
 */
export interface ResealProgress {
  /** Credentials re-wrapped under the current key so far. */
  readonly resealed: number
  /** Credentials already under the current key. */
  readonly current: number
  /** Credentials replaced by a concurrent write while being resealed (already under the current key). */
  readonly changedMeanwhile: number
  /** Credentials no configured key opens (altered, or under a key no longer kept): left as they are. */
  readonly unreadable: ReadonlyArray<{
    readonly organization_id: OrganizationId
    readonly id: DwAccountId
    readonly key_id: string
    readonly reason: SecretUnreadable["reason"]
  }>
}

/**
 * @since 0.1.0
 * @category models
 */
export interface ResealOptions {
  readonly batchSize: number
  readonly onBatch?: ((progress: ResealProgress) => Effect.Effect<void>) | undefined
}

interface Cursor {
  readonly organizationId: OrganizationId
  readonly id: DwAccountId
}

/**
 * Re-wraps every stored credential under the current master key, one transaction per batch
 * (keyset order, so a concurrent insert never shifts a batch), then keeps the current key's check
 * alone. A credential that no configured key opens is reported and left as it is: no key it
 * could need is being dropped (the old keys cannot open it either), so it has to be set again.
 * @since 0.1.0
 * @category utils
 */
export const reseal = (
  options: ResealOptions
): Effect.Effect<
  ResealProgress,
  SecretKeyRefused | StoreUnavailable,
  Secrets | SecretKeyCheckRepo | DwAccountsRepo | Transactor
> =>
  Effect.gen(function*() {
    yield* verify
    const secrets = yield* Secrets
    const accounts = yield* DwAccountsRepo
    const transactor = yield* Transactor
    const check = yield* currentCheck
    let progress: ResealProgress = { resealed: 0, current: 0, changedMeanwhile: 0, unreadable: [] }
    let after = Option.none<Cursor>()
    for (;;) {
      const batch: ReadonlyArray<SealedCredentials> = yield* accounts.listSealed(after, options.batchSize)
      if (batch.length === 0) break
      progress = yield* transactor.withTransaction(Effect.reduce(batch, progress, (counts, row) => {
        if (row.sealed.key_id === check.key_id) return Effect.succeed({ ...counts, current: counts.current + 1 })
        return secrets.rewrap(row.sealed, { tenant: row.organization_id, recordId: row.id }).pipe(
          Effect.flatMap((next) => accounts.replaceSealed(row, next)),
          Effect.map((replaced): ResealProgress =>
            replaced
              ? { ...counts, resealed: counts.resealed + 1 }
              : { ...counts, changedMeanwhile: counts.changedMeanwhile + 1 }
          ),
          Effect.catchTag("SecretUnreadable", (error) =>
            Effect.succeed({
              ...counts,
              unreadable: [...counts.unreadable, {
                organization_id: row.organization_id,
                id: row.id,
                key_id: error.key_id,
                reason: error.reason
              }]
            }))
        )
      }))
      const last = batch[batch.length - 1]!
      after = Option.some({ organizationId: last.organization_id, id: last.id })
      if (options.onBatch) yield* options.onBatch(progress)
    }
    yield* Effect.flatMap(SecretKeyCheckRepo, (repo) => repo.replaceAll(check))
    return progress
  })
