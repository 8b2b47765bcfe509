/**
 * Where `costline` gets the master keys that seal warehouse credentials: `COSTLINE_SECRET_KEY` or
 * `COSTLINE_SECRET_KEYS` when set. Otherwise, outside production, a development key kept in a
 * file `secret-key` in the SQLite database's directory (made on first use, mode 0600), so that
 * credentials entered while developing survive a restart, from whatever directory the command
 * runs. With `NODE_ENV=production` a missing key is an error: a key kept beside the database
 * protects nothing the database's own backups do not already expose.
 *
 * Every command that seals or opens secrets then checks the keys against the database's key
 * check (core KeyCheck) before doing anything: a wrong key stops it with one line, exit 1.
 */
import { KeyCheck, MasterKeys, Secrets } from "@costline/core"
import { Config, ConfigError, Console, Effect, Either, Layer, Option, Redacted } from "effect"
import { randomBytes } from "node:crypto"
import { mkdirSync, readFileSync, writeFileSync } from "node:fs"
import { dirname, join } from "node:path"
import { type Database, type StoreLayer, storeLayer } from "./Database.js"

export const KEY_FILE_NAME = "secret-key"

/** Beside a SQLite file; for Postgres or `:memory:`, `.costline/secret-key` in the working directory. */
export const developmentKeyFile = (database: Database): string =>
  database._tag === "sqlite" && database.filename !== ":memory:"
    ? join(dirname(database.filename), KEY_FILE_NAME)
    : join(".costline", KEY_FILE_NAME)

/** Its own id, so the key can later join COSTLINE_SECRET_KEYS (`development:<key>`) and still open its secrets. */
const DEVELOPMENT_KEY_ID = "development"

const isAlreadyThere = (error: unknown) => (error as { readonly code?: unknown }).code === "EEXIST"

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error))

/** A key file that cannot be made or read is a configuration problem, like a malformed variable. */
const unusable = (file: string, problem: string) => ConfigError.InvalidData([], `${file}: ${problem}`)

/** Creates the key file unless it exists; `wx` makes two processes starting at once agree on one key. */
const createKeyFile = (file: string) =>
  Effect.try({
    try: () => {
      mkdirSync(dirname(file), { recursive: true, mode: 0o700 })
      const key = randomBytes(MasterKeys.MASTER_KEY_BYTES).toString("base64")
      writeFileSync(file, `${key}\n`, { mode: 0o600, flag: "wx" })
      return true
    },
    catch: (error) => error
  }).pipe(Effect.catchIf(isAlreadyThere, () => Effect.succeed(false)))

const readKeyFile = (file: string) =>
  Effect.try({ try: () => readFileSync(file, "utf8"), catch: (error) => unusable(file, messageOf(error)) }).pipe(
    Effect.flatMap((text) =>
      Either.mapLeft(MasterKeys.parseKey(text), (problem) => unusable(file, `the key ${problem}`)))
  )

const developmentKeys = (file: string) =>
  Effect.gen(function*() {
    const created = yield* createKeyFile(file).pipe(Effect.mapError((error) => unusable(file, messageOf(error))))
    const master = { id: DEVELOPMENT_KEY_ID, key: Redacted.make(yield* readKeyFile(file)) }
    yield* Console.error(
      created
        ? `costline: COSTLINE_SECRET_KEY is not set; generated a development key in ${file} (mode 0600). ` +
          "Set COSTLINE_SECRET_KEY in production."
        : `costline: COSTLINE_SECRET_KEY is not set; using the development key in ${file}`
    )
    return { current: master, byId: new Map([[master.id, master]]) } satisfies MasterKeys.KeyRing
  })

/** The configured master keys, else (outside production) the development key of `database`. */
export const keyRing = (database: Database) =>
  Effect.gen(function*() {
    const configured = yield* MasterKeys.configuredKeyRing
    if (Option.isSome(configured)) return configured.value
    const environment = yield* Config.string("NODE_ENV").pipe(Config.withDefault("development"))
    if (environment === "production") return yield* Effect.fail(MasterKeys.missingKeyError)
    return yield* developmentKeys(developmentKeyFile(database))
  })

/**
 * The master keys of `database`, checked against its key check (stored on first use): fails with
 * SecretKeyRefused when a configured key is not the one that sealed its secrets. The store is
 * opened (and migrated) for the check and closed again, unless `store` is a layer the caller
 * keeps open (`Layer.memoize`: `serve` checks the keys on the store it then serves from).
 */
export const checkedSecrets = (database: Database, store: StoreLayer = storeLayer(database)) =>
  Effect.gen(function*() {
    const secrets = Secrets.Secrets.layerFromKeys(yield* keyRing(database))
    yield* KeyCheck.verify.pipe(Effect.provide(Layer.merge(secrets, store)))
    return secrets
  })
