/** A minimal DER writer for building EncryptedPrivateKeyInfo structures by hand. */

const length = (n: number): Buffer => {
  if (n < 0x80) return Buffer.from([n])
  const bytes: Array<number> = []
  for (let rest = n; rest > 0; rest = Math.floor(rest / 256)) bytes.unshift(rest % 256)
  return Buffer.from([0x80 | bytes.length, ...bytes])
}

export const tlv = (tag: number, content: Uint8Array): Buffer => Buffer.concat([Buffer.from([tag]), length(content.length), content])

export const sequence = (...elements: ReadonlyArray<Uint8Array>) => tlv(0x30, Buffer.concat(elements))

export const integer = (value: bigint): Buffer => {
  const bytes: Array<number> = []
  for (let rest = value; rest > 0n; rest /= 256n) bytes.unshift(Number(rest % 256n))
  // A leading zero byte keeps the value positive when its top bit is set.
  if (bytes.length === 0 || bytes[0]! & 0x80) bytes.unshift(0)
  return tlv(0x02, Buffer.from(bytes))
}

export const oid = (hex: string) => tlv(0x06, Buffer.from(hex, "hex"))

export const octets = (size: number) => tlv(0x04, Buffer.alloc(size, 0xab))

export const OIDS = {
  pbes2: "2a864886f70d01050d",
  pbkdf2: "2a864886f70d01050c",
  scrypt: "2b06010401da47040b",
  aes256cbc: "60864801650304012a",
  pbeWithSha1And3DesCbc: "2a864886f70d010c0103"
} as const

const aes256Cbc = sequence(oid(OIDS.aes256cbc), octets(16))

/** EncryptedPrivateKeyInfo with PBES2 over the given KDF and dummy encrypted data. */
export const pbes2 = (kdf: Buffer) =>
  sequence(sequence(oid(OIDS.pbes2), sequence(kdf, aes256Cbc)), octets(64))

export const pbkdf2 = (iterations: bigint) => sequence(oid(OIDS.pbkdf2), sequence(octets(16), integer(iterations)))

export const scrypt = (n: bigint, r: bigint, p: bigint) =>
  sequence(oid(OIDS.scrypt), sequence(octets(16), integer(n), integer(r), integer(p)))

/** PKCS#12-style PBE: parameters are { salt, iterations } directly. */
export const pkcs12Pbe = (iterations: bigint) =>
  sequence(sequence(oid(OIDS.pbeWithSha1And3DesCbc), sequence(octets(8), integer(iterations))), octets(64))

/** As PEM text, the way a user would paste it. */
export const encryptedPem = (der: Buffer) =>
  ["-----BEGIN ENCRYPTED PRIVATE KEY-----", ...der.toString("base64").match(/.{1,64}/g)!, "-----END ENCRYPTED PRIVATE KEY-----"]
    .join("\n")
