/**
 * PEM parsing that survives how keys get pasted: real newlines, CRLF, or the one-line form in
 * which every newline became a space. Between the BEGIN and END lines the text is split on any
 * white space, so all three forms parse alike and format back to one canonical PEM.
 */
import { Either } from "effect"

/** An RFC 1421 header line such as `Proc-Type: 4,ENCRYPTED` (legacy encrypted PKCS#1). */
export interface PemHeader {
  readonly name: string
  readonly value: string
}

export interface PemBlock {
  readonly label: string
  readonly headers: ReadonlyArray<PemHeader>
  readonly der: Buffer
}

export type PemProblem = "not_pem" | "mismatched_labels" | "bad_body"

const BLOCK = /^-----BEGIN ([A-Z0-9 ]+)-----([\s\S]*?)-----END ([A-Z0-9 ]+)-----$/
const HEADER_NAME = /^([A-Za-z][A-Za-z0-9-]*):$/
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/
const BODY_LINE = /.{1,64}/g

/**
 * Headers are `Name: value` pairs before the body. The values we meet (Proc-Type, DEK-Info)
 * hold no spaces, so once newlines are gone a header is exactly two tokens.
 */
const splitHeaders = (tokens: ReadonlyArray<string>) => {
  const headers: Array<PemHeader> = []
  let index = 0
  while (index < tokens.length) {
    const name = HEADER_NAME.exec(tokens[index]!)
    if (!name) break
    headers.push({ name: name[1]!, value: tokens[index + 1] ?? "" })
    index += 2
  }
  return { headers, body: tokens.slice(index).join("") }
}

/** The single PEM block `text` holds (surrounding white space allowed, nothing else). */
export const parse = (text: string): Either.Either<PemBlock, PemProblem> => {
  const match = BLOCK.exec(text.trim())
  if (!match) return Either.left("not_pem")
  const [, label, inner, endLabel] = match as unknown as [string, string, string, string]
  if (label !== endLabel) return Either.left("mismatched_labels")
  const { headers, body } = splitHeaders(inner.split(/\s+/).filter((token) => token.length > 0))
  if (!BASE64.test(body) || body.length % 4 !== 0) return Either.left("bad_body")
  return Either.right({ label, headers, der: Buffer.from(body, "base64") })
}

/** Canonical PEM: LF line ends, headers then a blank line, body wrapped at 64 columns. */
export const format = (block: PemBlock): string => {
  const body = block.der.toString("base64").match(BODY_LINE) ?? []
  const headers = block.headers.map((header) => `${header.name}: ${header.value}`)
  return [
    `-----BEGIN ${block.label}-----`,
    ...(headers.length > 0 ? [...headers, ""] : []),
    ...body,
    `-----END ${block.label}-----`,
    ""
  ].join("\n")
}
