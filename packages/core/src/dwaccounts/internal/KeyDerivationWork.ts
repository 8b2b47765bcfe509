/**
 * An encrypted PKCS#8 key names its own key-derivation cost (PBKDF2 iterations, scrypt N·r·p),
 * and OpenSSL pays it synchronously, on the event loop, before it can tell a wrong passphrase.
 * A key asking for 2^31 PBKDF2 iterations would stall the server for minutes, so the cost is
 * read from the DER and capped before decryption is attempted.
 */
import { children, type DerElement, oidHex, readAll, unsignedInteger } from "./Der.js"

/**
 * Ample for real keys (OpenSSL writes 2,048 PBKDF2 iterations and scrypt N·r·p = 131,072) while
 * bounding the stall: a million PBKDF2-SHA1 rounds take about half a second.
 */
export const MAX_KEY_DERIVATION_WORK = 1_000_000n

const PBES2 = "2a864886f70d01050d" // 1.2.840.113549.1.5.13
const SCRYPT = "2b06010401da47040b" // 1.3.6.1.4.1.11591.4.11

/**
 * The work factor of an AlgorithmIdentifier's key derivation: PBES2 delegates to its
 * keyDerivationFunc; scrypt costs N·r·p; PBKDF2, PBES1 and the PKCS#12 schemes all put the
 * iteration count right after the salt.
 */
const workOf = (algorithmIdentifier: ReadonlyArray<DerElement> | undefined): bigint | undefined => {
  const [algorithm, parameters] = algorithmIdentifier ?? []
  const oid = oidHex(algorithm)
  const fields = children(parameters)
  if (oid === undefined || fields === undefined) return undefined
  if (oid === PBES2) return workOf(children(fields[0]))
  if (oid === SCRYPT) {
    const [n, r, p] = fields.slice(1, 4).map(unsignedInteger)
    return n === undefined || r === undefined || p === undefined ? undefined : n * r * p
  }
  return unsignedInteger(fields[1])
}

/**
 * The key-derivation work an EncryptedPrivateKeyInfo (DER) asks for, or undefined when its
 * structure is not one we recognise.
 */
export const keyDerivationWork = (encryptedPrivateKeyInfo: Uint8Array): bigint | undefined => {
  const top = readAll(encryptedPrivateKeyInfo)
  if (top?.length !== 1) return undefined
  const [encryptionAlgorithm] = children(top[0]) ?? []
  return workOf(children(encryptionAlgorithm))
}
