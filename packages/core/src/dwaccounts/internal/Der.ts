/**
 * Just enough of a DER reader to look inside the encryption parameters of a PKCS#8 key before
 * handing it to OpenSSL (see KeyDerivationWork). Every read is bounds-checked: malformed bytes
 * give `undefined`, never an exception.
 */

export const Tag = { INTEGER: 0x02, OCTET_STRING: 0x04, OID: 0x06, SEQUENCE: 0x30 } as const

/** One DER element: its tag byte and its content. */
export interface DerElement {
  readonly tag: number
  readonly content: Uint8Array
}

/** Longest length prefix we accept: 4 bytes, already far beyond any key. */
const MAX_LENGTH_BYTES = 4

const readOne = (bytes: Uint8Array, start: number): { element: DerElement; end: number } | undefined => {
  if (start + 2 > bytes.length) return undefined
  const tag = bytes[start]!
  // Multi-byte tags (low five bits all set) never occur in the structures we read.
  if ((tag & 0x1f) === 0x1f) return undefined
  let length = bytes[start + 1]!
  let offset = start + 2
  if (length & 0x80) {
    const count = length & 0x7f
    if (count === 0 || count > MAX_LENGTH_BYTES || offset + count > bytes.length) return undefined
    length = 0
    for (let i = 0; i < count; i++) length = length * 256 + bytes[offset + i]!
    offset += count
  }
  const end = offset + length
  if (end > bytes.length) return undefined
  return { element: { tag, content: bytes.subarray(offset, end) }, end }
}

/** The elements that fill `bytes` exactly, in order; undefined when they do not. */
export const readAll = (bytes: Uint8Array): ReadonlyArray<DerElement> | undefined => {
  const elements: Array<DerElement> = []
  let offset = 0
  while (offset < bytes.length) {
    const read = readOne(bytes, offset)
    if (read === undefined) return undefined
    elements.push(read.element)
    offset = read.end
  }
  return elements
}

/** The children of a SEQUENCE, or undefined when `element` is not a well-formed one. */
export const children = (element: DerElement | undefined): ReadonlyArray<DerElement> | undefined =>
  element?.tag === Tag.SEQUENCE ? readAll(element.content) : undefined

/** A non-negative INTEGER's value, or undefined for anything else. */
export const unsignedInteger = (element: DerElement | undefined): bigint | undefined => {
  if (element?.tag !== Tag.INTEGER || element.content.length === 0 || element.content[0]! & 0x80) return undefined
  return element.content.reduce((value, byte) => value * 256n + BigInt(byte), 0n)
}

/** An OBJECT IDENTIFIER's encoded content as hex, the cheapest way to compare it. */
export const oidHex = (element: DerElement | undefined): string | undefined =>
  element?.tag === Tag.OID ? Buffer.from(element.content).toString("hex") : undefined
