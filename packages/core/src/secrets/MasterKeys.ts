/**
 * The master keys that wrap every record's data key, read from the environment:
 * - `COSTLINE_SECRET_KEY`: one key, whose id is `default`;
 * - `COSTLINE_SECRET_KEYS`: `id1:key1,id2:key2,...` for rotation: the first seals new secrets,
 *   every one still opens the secrets sealed under it.
 * A key is 32 random bytes written as 64 hex digits or as base64 (standard or URL-safe).
 * Messages name the variable and the entry, never the key.
 */
import { Config, ConfigError, Either, Option, Redacted } from "effect"

/**
 * @since 0.1.0
 * @category models
 */
export interface MasterKey {
  readonly id: string
  readonly key: Redacted.Redacted<Buffer>
}

/**
 * @since 0.1.0
 * @category models
 */
export interface KeyRing {
  /** Seals every new secret. */
  readonly current: MasterKey
  /** Opens secrets by the key id stored with them. */
  readonly byId: ReadonlyMap<string, MasterKey>
}

/**
 * @since 0.1.0
 * @category constants
 */
export const SINGLE_KEY_VARIABLE = "COSTLINE_SECRET_KEY"
/**
 * @since 0.1.0
 * @category constants
 */
export const KEY_LIST_VARIABLE = "COSTLINE_SECRET_KEYS"
/**
 * @since 0.1.0
 * @category constants
 */
export const DEFAULT_KEY_ID = "default"
/**
 * @since 0.1.0
 * @category constants
 */
export const MASTER_KEY_BYTES = 32

const KEY_ID = /^[A-Za-z0-9._-]{1,64}$/
const HEX_KEY = /^[0-9A-Fa-f]{64}$/
// 43 characters carry 258 bits: 32 bytes plus two zero bits, then optional padding.
const BASE64_KEY = /^[A-Za-z0-9+/_-]{43}=?$/

const KEY_FORMAT = `must be ${MASTER_KEY_BYTES} bytes as 64 hex digits or base64 (make one with: openssl rand -base64 32)`

/**
 * @since 0.1.0
 * @category utils
 */
export const parseKey = (text: string): Either.Either<Buffer, string> => {
  const trimmed = text.trim()
  if (HEX_KEY.test(trimmed)) return Either.right(Buffer.from(trimmed, "hex"))
  // Node's base64 decoder reads the standard and the URL-safe alphabet alike.
  if (BASE64_KEY.test(trimmed)) return Either.right(Buffer.from(trimmed, "base64"))
  return Either.left(KEY_FORMAT)
}

/**
 * A ring whose first key is current; ids must be well-formed and distinct. Problems name the
 * entry by position, never its id: a key pasted where the id belongs must not end up in a log.
 * @since 0.1.0
 * @category utils
 */
export const keyRing = (keys: ReadonlyArray<MasterKey>): Either.Either<KeyRing, string> => {
  const [current] = keys
  if (current === undefined) return Either.left("no master key given")
  const byId = new Map<string, MasterKey>()
  for (const [index, key] of keys.entries()) {
    if (!KEY_ID.test(key.id)) return Either.left(`entry ${index + 1}: key id must be 1-64 letters, digits, '.', '_' or '-'`)
    if (byId.has(key.id)) return Either.left(`entry ${index + 1}: key id is already used by an earlier entry`)
    byId.set(key.id, key)
  }
  return Either.right({ current, byId })
}

const masterKey = (id: string, text: string) =>
  Either.map(parseKey(text), (key): MasterKey => ({ id, key: Redacted.make(key) }))

/**
 * The value of `COSTLINE_SECRET_KEY`: one key, id `default`.
 * @since 0.1.0
 * @category utils
 */
export const parseSingleKey = (text: string): Either.Either<KeyRing, string> =>
  Either.flatMap(masterKey(DEFAULT_KEY_ID, text), (key) => keyRing([key]))

/**
 * The value of `COSTLINE_SECRET_KEYS`: `id1:key1,id2:key2`; errors say which entry is wrong.
 * @since 0.1.0
 * @category utils
 */
export const parseKeyList = (text: string): Either.Either<KeyRing, string> =>
  Either.gen(function*() {
    const keys: Array<MasterKey> = []
    for (const [index, entry] of text.split(",").entries()) {
      const separator = entry.indexOf(":")
      if (separator < 0) return yield* Either.left(`entry ${index + 1} must be written id:key`)
      const key = masterKey(entry.slice(0, separator).trim(), entry.slice(separator + 1))
      keys.push(yield* Either.mapLeft(key, (problem) => `entry ${index + 1}: key ${problem}`))
    }
    return yield* keyRing(keys)
  })

const fromVariable = (
  variable: string,
  value: Redacted.Redacted,
  parse: (text: string) => Either.Either<KeyRing, string>
): Either.Either<Option.Option<KeyRing>, ConfigError.ConfigError> =>
  Either.mapBoth(parse(Redacted.value(value)), {
    onLeft: (problem) => ConfigError.InvalidData([variable], `${variable} ${problem}`),
    onRight: Option.some
  })

/**
 * The configured ring, None when neither variable is set. Setting both is refused rather than
 * guessing which one the operator meant.
 * @since 0.1.0
 * @category utils
 */
export const configuredKeyRing: Config.Config<Option.Option<KeyRing>> = Config.all({
  single: Config.option(Config.redacted(SINGLE_KEY_VARIABLE)),
  list: Config.option(Config.redacted(KEY_LIST_VARIABLE))
}).pipe(Config.mapOrFail(({ list, single }) => {
  if (Option.isSome(single) && Option.isSome(list)) {
    return Either.left(ConfigError.InvalidData([], `set only one of ${SINGLE_KEY_VARIABLE} and ${KEY_LIST_VARIABLE}`))
  }
  if (Option.isSome(single)) return fromVariable(SINGLE_KEY_VARIABLE, single.value, parseSingleKey)
  if (Option.isSome(list)) return fromVariable(KEY_LIST_VARIABLE, list.value, parseKeyList)
  return Either.right(Option.none())
}))

/**
 * @since 0.1.0
 * @category utils
 */
export const missingKeyError = ConfigError.MissingData(
  [SINGLE_KEY_VARIABLE],
  `${SINGLE_KEY_VARIABLE} (or ${KEY_LIST_VARIABLE}) must be set to encrypt warehouse credentials at rest; ` +
    "make a key with: openssl rand -base64 32"
)
