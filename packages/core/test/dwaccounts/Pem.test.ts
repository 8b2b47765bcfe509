import { describe, expect, it } from "@effect/vitest"
import { Either, FastCheck as fc } from "effect"
import * as Pem from "../../src/dwaccounts/internal/Pem.js"
import { rsaKeys } from "./keys.js"

const forms = Object.entries(rsaKeys)

/** Rebuilds a PEM with a chosen separator at every line break, as copy-paste does. */
const rejoin = (pem: string, separators: ReadonlyArray<string>) =>
  pem.trim().split("\n").reduce((text, line, index) => index === 0 ? line : text + separators[index % separators.length] + line, "")

const separator = fc.constantFrom(" ", "\n", "\r\n", "\t", "  ", " \r\n ")

describe("Pem", () => {
  it.each(forms)("formats %s back to exactly what OpenSSL wrote", (_, pem) => {
    expect(Either.map(Pem.parse(pem), Pem.format)).toStrictEqual(Either.right(pem))
  })

  it.each(forms)("reads the one-line form of %s (newlines became spaces)", (_, pem) => {
    const oneLine = pem.trim().replaceAll("\n", " ")
    expect(oneLine).not.toContain("\n")
    expect(Either.map(Pem.parse(oneLine), Pem.format)).toStrictEqual(Either.right(pem))
  })

  it.each(forms)("reads %s with CRLF line ends", (_, pem) => {
    expect(Either.map(Pem.parse(pem.replaceAll("\n", "\r\n")), Pem.format)).toStrictEqual(Either.right(pem))
  })

  it.prop(
    "reads any mix of white space between lines, with white space around",
    [fc.constantFrom(...Object.values(rsaKeys)), fc.array(separator, { minLength: 1, maxLength: 8 }), separator],
    ([pem, separators, around]) => {
      expect(Either.map(Pem.parse(around + rejoin(pem, separators) + around), Pem.format)).toStrictEqual(Either.right(pem))
    }
  )

  it("keeps the legacy encryption headers of PKCS#1, then a blank line", () => {
    const block = Either.getOrThrow(Pem.parse(rsaKeys.pkcs1Encrypted))
    expect(block.label).toBe("RSA PRIVATE KEY")
    expect(block.headers.map((header) => header.name)).toStrictEqual(["Proc-Type", "DEK-Info"])
    expect(block.headers[0]!.value).toBe("4,ENCRYPTED")
    expect(Pem.format(block)).toMatch(/^-----BEGIN RSA PRIVATE KEY-----\nProc-Type: 4,ENCRYPTED\nDEK-Info: AES-256-CBC,[0-9A-F]{32}\n\n/)
  })

  it("decodes the body to DER", () => {
    const block = Either.getOrThrow(Pem.parse(rsaKeys.pkcs8))
    expect(block.der[0]).toBe(0x30) // a SEQUENCE
    expect(block.der.toString("base64")).toBe(rsaKeys.pkcs8.replace(/-----[A-Z ]+-----|\s/g, ""))
  })

  it.each([
    ["no PEM at all", "not a key", "not_pem"],
    ["text before the block", `key: ${rsaKeys.pkcs8}`, "not_pem"],
    ["two blocks", rsaKeys.pkcs8 + rsaKeys.pkcs1, "mismatched_labels"],
    ["no END line", rsaKeys.pkcs8.replace(/-----END[^\n]+\n/, ""), "not_pem"],
    ["different labels", rsaKeys.pkcs8.replace("END PRIVATE", "END RSA PRIVATE"), "mismatched_labels"],
    ["a character outside base64", rsaKeys.pkcs8.replace(/\n([A-Za-z0-9+/])/, "\n*"), "bad_body"],
    ["padding inside the body", rsaKeys.pkcs8.replace(/\n([A-Za-z0-9+/]{4})/, "\nAA=="), "bad_body"],
    ["a body cut short by one character", rsaKeys.pkcs8.replace(/[A-Za-z0-9+/=]\n-----END/, "\n-----END"), "bad_body"],
    ["an empty body", "-----BEGIN PRIVATE KEY-----\n-----END PRIVATE KEY-----", "bad_body"]
  ] as const)("refuses %s", (_, text, problem) => {
    expect(Pem.parse(text)).toStrictEqual(Either.left(problem))
  })
})
