import { describe, expect, it } from "@effect/vitest"
import { FastCheck as fc } from "effect"
import * as Der from "../../src/dwaccounts/internal/Der.js"
import { keyDerivationWork } from "../../src/dwaccounts/internal/KeyDerivationWork.js"
import { integer, octets, oid, OIDS, pbes2, pbkdf2, pkcs12Pbe, scrypt, sequence, tlv } from "./der.js"
import { rsaKeys } from "./keys.js"

const derOf = (pem: string) => Buffer.from(pem.replace(/-----[A-Z ]+-----|\s/g, ""), "base64")

describe("keyDerivationWork", () => {
  it("reads the PBKDF2 iteration count of a key Node encrypted (OpenSSL's default 2048)", () => {
    expect(keyDerivationWork(derOf(rsaKeys.pkcs8Encrypted))).toBe(2048n)
  })

  it("reads PBES2 with PBKDF2", () => {
    expect(keyDerivationWork(pbes2(pbkdf2(123_456n)))).toBe(123_456n)
    expect(keyDerivationWork(pbes2(pbkdf2(2n ** 31n - 1n)))).toBe(2n ** 31n - 1n)
  })

  it("counts scrypt as N·r·p", () => {
    expect(keyDerivationWork(pbes2(scrypt(16_384n, 8n, 1n)))).toBe(131_072n)
    expect(keyDerivationWork(pbes2(scrypt(1024n, 1n, 4096n)))).toBe(4_194_304n)
  })

  it("reads the iteration count of PKCS#12 / PBES1 schemes", () => {
    expect(keyDerivationWork(pkcs12Pbe(4096n))).toBe(4096n)
  })

  it("is undefined for structures it does not recognise", () => {
    const cases = [
      Buffer.alloc(0),
      octets(10),
      sequence(octets(4), octets(4)),
      // trailing bytes after the outer SEQUENCE
      Buffer.concat([pbes2(pbkdf2(2048n)), Buffer.from([0])]),
      // truncated
      pbes2(pbkdf2(2048n)).subarray(0, 40),
      // a negative iteration count
      pbes2(sequence(oid(OIDS.pbkdf2), sequence(octets(8), tlv(0x02, Buffer.from([0xff]))))),
      // scrypt without its parallelization parameter
      pbes2(sequence(oid(OIDS.scrypt), sequence(octets(8), integer(2n), integer(8n))))
    ]
    for (const der of cases) expect(keyDerivationWork(der)).toBeUndefined()
  })

  it.prop("never throws, whatever the bytes", [fc.uint8Array({ maxLength: 300 })], ([bytes]) => {
    expect(() => keyDerivationWork(bytes)).not.toThrow()
  })

  it.prop("never throws on a real structure with one byte changed", [fc.nat(), fc.integer({ min: 1, max: 255 })], ([at, xor]) => {
    const der = derOf(rsaKeys.pkcs8Encrypted)
    der[at % der.length]! ^= xor
    expect(() => keyDerivationWork(der)).not.toThrow()
  })
})

describe("Der", () => {
  it("reads long-form lengths", () => {
    const content = Buffer.alloc(300, 7)
    const [element] = Der.readAll(tlv(0x04, content)) ?? []
    expect(element?.tag).toBe(0x04)
    expect(Buffer.from(element!.content)).toStrictEqual(content)
  })

  it("rejects lengths past the end, indefinite lengths and multi-byte tags", () => {
    expect(Der.readAll(Buffer.from([0x04, 0x05, 1, 2]))).toBeUndefined()
    expect(Der.readAll(Buffer.from([0x04, 0x84, 0xff, 0xff, 0xff, 0xff, 1]))).toBeUndefined()
    expect(Der.readAll(Buffer.from([0x30, 0x80, 0, 0]))).toBeUndefined()
    expect(Der.readAll(Buffer.from([0x1f, 0x01, 0x00]))).toBeUndefined()
  })

  it("reads only non-negative INTEGERs", () => {
    expect(Der.unsignedInteger(Der.readAll(integer(2n ** 40n))?.[0])).toBe(2n ** 40n)
    expect(Der.unsignedInteger(Der.readAll(integer(0n))?.[0])).toBe(0n)
    expect(Der.unsignedInteger(Der.readAll(tlv(0x02, Buffer.from([0x80])))?.[0])).toBeUndefined()
    expect(Der.unsignedInteger(Der.readAll(tlv(0x02, Buffer.alloc(0)))?.[0])).toBeUndefined()
    expect(Der.unsignedInteger(Der.readAll(octets(1))?.[0])).toBeUndefined()
  })
})
