/** Master key rings for tests, built from fresh random keys. */
import { Either, Redacted } from "effect"
import { randomBytes } from "node:crypto"
import { keyRing, type MasterKey } from "../../src/secrets/MasterKeys.js"

export const masterKey = (id: string, key: Buffer = randomBytes(32)): MasterKey => ({ id, key: Redacted.make(key) })

export const ringOf = (...keys: ReadonlyArray<MasterKey>) => Either.getOrThrow(keyRing(keys))
