/**
 * Secrets at rest (warehouse private keys): seal before storing, open when the key is needed.
 * See Envelope for the format and MasterKeys for configuration.
 *
 * Without a configured master key there is deliberately no fallback key derived from a constant:
 * anyone with the source could derive it too, so "encrypted at rest" would be a false promise.
 * `layerFromConfig` therefore fails with a ConfigError. `layerEphemeral` is the honest
 * alternative for tests and the zero-setup demo: a random key that lives as long as the process,
 * so whatever it sealed cannot be opened after a restart (it fails as `unknown_key`, naming the
 * dead key) and has to be entered again. `layerFromConfigOrEphemeral` picks it only when no key
 * is configured at all; a misconfigured key still fails.
 */
import { type ConfigError, Context, Effect, Layer, Option, Redacted } from "effect"
import { randomBytes } from "node:crypto"
import * as Envelope from "./Envelope.js"
import { configuredKeyRing, type KeyRing, MASTER_KEY_BYTES, missingKeyError, SINGLE_KEY_VARIABLE } from "./MasterKeys.js"

/**
 * @since 0.1.0
 * @category models
 */
export interface SecretsService {
  /** Seals UTF-8 text under the current master key, bound to `aad`. */
  readonly seal: (plaintext: string, aad: Envelope.SecretAad) => Effect.Effect<Envelope.SealedSecret>
  /** Fails when the AAD differs from the one sealed with, the key is unknown, or a byte changed. */
  readonly open: (sealed: Envelope.SealedSecret, aad: Envelope.SecretAad) => Effect.Effect<string, Envelope.SecretUnreadable>
  /** Re-wraps a secret's data key under the current master key, for rotation. */
  readonly rewrap: (
    sealed: Envelope.SealedSecret,
    aad: Envelope.SecretAad
  ) => Effect.Effect<Envelope.SealedSecret, Envelope.SecretUnreadable>
}

const make = (ring: KeyRing): SecretsService => ({
  seal: (plaintext, aad) => Effect.sync(() => Envelope.seal(ring, plaintext, aad)),
  open: (sealed, aad) => Effect.suspend(() => Envelope.open(ring, sealed, aad)),
  rewrap: (sealed, aad) => Effect.suspend(() => Envelope.rewrap(ring, sealed, aad))
})

const ephemeral = Effect.gen(function*() {
  const id = `ephemeral-${randomBytes(4).toString("hex")}`
  const current = { id, key: Redacted.make(randomBytes(MASTER_KEY_BYTES)) }
  yield* Effect.logWarning(
    `${SINGLE_KEY_VARIABLE} is not set: secrets are sealed with a random key (${id}) that dies with this ` +
      "process and cannot be opened after a restart"
  )
  return make({ current, byId: new Map([[id, current]]) })
})

const fromConfig = (whenMissing: Effect.Effect<SecretsService, ConfigError.ConfigError>) =>
  Effect.flatMap(configuredKeyRing, Option.match({ onNone: () => whenMissing, onSome: (ring) => Effect.succeed(make(ring)) }))

/**
 * @since 0.1.0
 * @category tags
 */
export class Secrets extends Context.Tag("@costline/core/Secrets")<Secrets, SecretsService>() {
  /** Master keys given directly, for embedders that keep them elsewhere than the environment. */
  static readonly layerFromKeys = (ring: KeyRing) => Layer.succeed(Secrets, make(ring))

  /** Master keys from the environment; fails with a ConfigError when none (or a bad one) is set. */
  static readonly layerFromConfig = Layer.effect(Secrets, fromConfig(Effect.fail(missingKeyError)))

  /** A random master key for this process only (tests, demos); logs a warning. */
  static readonly layerEphemeral = Layer.effect(Secrets, ephemeral)

  /** The configured keys, else an ephemeral key: for `npm start`. A malformed key still fails. */
  static readonly layerFromConfigOrEphemeral = Layer.effect(Secrets, fromConfig(ephemeral))
}
