/**
 * Bearer token format: `<prefix>_<30 random base62 chars><6 char base62 CRC-32 checksum>`.
 * The checksum lets us reject typos and garbage without a store round-trip; only the SHA-256
 * hash of a token is ever stored.
 */
// `crypto.hash`: one call, no Hash object (~0.8 → 0.3 µs a token, issue 19).
import { hash as sha256, randomBytes } from "node:crypto"
import { crc32 as zlibCrc32 } from "node:zlib"

/**
 * @since 0.1.0
 * @category models
 */
export type TokenKind = "api_key" | "session" | "invitation"

const PREFIX: Record<TokenKind, string> = { api_key: "clk", session: "cls", invitation: "cli" }
const KIND_OF: Record<string, TokenKind> = { clk: "api_key", cls: "session", cli: "invitation" }
const ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
const BODY_LENGTH = 30
const CHECKSUM_LENGTH = 6
const TOKEN_PATTERN = /^(clk|cls|cli)_([0-9A-Za-z]{36})$/

/**
 * CRC-32 (IEEE) of the text's UTF-8 bytes: zlib's, native (a JavaScript table loop was ~2% of an
 * authenticated read, issue 19).
 * @since 0.1.0
 * @category utils
 */
export const crc32 = (text: string): number => zlibCrc32(text)

const base62 = (value: number, width: number): string => {
  let out = ""
  let rest = value
  for (let i = 0; i < width; i++) {
    out = ALPHABET[rest % 62] + out
    rest = Math.floor(rest / 62)
  }
  return out
}

const checksum = (prefix: string, body: string) => base62(crc32(`${prefix}_${body}`), CHECKSUM_LENGTH)

/**
 * A new random token of the given kind. `random` is injectable for tests.
 * @since 0.1.0
 * @category utils
 */
export const generate = (kind: TokenKind, random: (n: number) => Uint8Array = randomBytes): string => {
  const prefix = PREFIX[kind]
  // Rejection sampling keeps every base62 character equally likely.
  let body = ""
  while (body.length < BODY_LENGTH) {
    for (const byte of random(BODY_LENGTH * 2)) {
      if (byte < 248 && body.length < BODY_LENGTH) body += ALPHABET[byte % 62]
    }
  }
  return `${prefix}_${body}${checksum(prefix, body)}`
}

/**
 * The kind of a well-formed token with a valid checksum, else undefined.
 * @since 0.1.0
 * @category utils
 */
export const parse = (token: string): TokenKind | undefined => {
  const match = TOKEN_PATTERN.exec(token)
  if (!match) return undefined
  const [, prefix, rest] = match as unknown as [string, string, string]
  const body = rest.slice(0, BODY_LENGTH)
  if (rest.slice(BODY_LENGTH) !== checksum(prefix, body)) return undefined
  return KIND_OF[prefix]
}

/**
 * What the store keeps: hex SHA-256 of the whole token.
 * @since 0.1.0
 * @category utils
 */
export const hash = (token: string): string => sha256("sha256", token, "hex")

/**
 * The recognisable start of a token, safe to display.
 * @since 0.1.0
 * @category utils
 */
export const displayPrefix = (token: string): string => token.slice(0, 8)
