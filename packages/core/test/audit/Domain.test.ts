import { describe, expect, it } from "@effect/vitest"
import { FastCheck as fc } from "effect"
import { redact } from "../../src/audit/Domain.js"

/** The secret names of the audit rules (core's SecretFields), written out independently of its pattern. */
const SECRET_PARTS = ["private_key", "privatekey", "token", "secret", "password", "passphrase", "authorization", "api_key", "apikey"]
const isSecret = (key: string) => {
  const lower = key.toLowerCase()
  if (lower.endsWith("page_token") || lower.endsWith("pagetoken")) return false
  return SECRET_PARTS.some((part) => lower.includes(part)) || lower.endsWith("_hash")
}

const key = fc.oneof(
  fc.constantFrom(
    "name",
    "password",
    "Password",
    "TOKEN",
    "token_hash",
    "key_hash",
    "private_key",
    "Private_Key_Passphrase",
    "secret",
    "token_count",
    "secretary",
    "next_page_token",
    "client_secret",
    "hash",
    "hashes"
  ),
  fc.string().filter((k) => k !== "__proto__")
)

const { value } = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: "small" },
    fc.constant("s3cr3t-value"),
    fc.integer(),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie("value"), { maxLength: 3 }),
    fc.dictionary(key, tie("value"), { maxKeys: 4 })
  )
}))
const values = fc.dictionary(key, value, { maxKeys: 5 })

/** Output has the input's shape; values under secret keys are replaced, everything else is kept. */
const expectRedacted = (input: unknown, output: unknown): void => {
  if (Array.isArray(input)) {
    expect(output).toHaveLength(input.length)
    input.forEach((item, i) => expectRedacted(item, (output as Array<unknown>)[i]))
  } else if (input !== null && typeof input === "object") {
    const out = output as Record<string, unknown>
    expect(Object.keys(out).sort()).toStrictEqual(Object.keys(input).sort())
    for (const [k, v] of Object.entries(input)) {
      if (isSecret(k)) expect(out[k]).toBe("[redacted]")
      else expectRedacted(v, out[k])
    }
  } else {
    expect(output).toBe(input)
  }
}

describe("redact", () => {
  it("maps absent values to null", () => {
    expect(redact(null)).toBeNull()
    expect(redact(undefined)).toBeNull()
  })

  it("replaces secrets at any depth, inside arrays too, and keeps the rest", () => {
    expect(redact({
      name: "warehouse key",
      password: "p",
      credentials: { private_key: "-----BEGIN", Private_Key_Passphrase: "pp", username: "svc" },
      keys: [{ token_hash: "ab12", prefix: "clk_1234" }, { refresh_hash: "cd34" }],
      token_count: 3
    })).toStrictEqual({
      name: "warehouse key",
      password: "[redacted]",
      credentials: { private_key: "[redacted]", Private_Key_Passphrase: "[redacted]", username: "svc" },
      keys: [{ token_hash: "[redacted]", prefix: "clk_1234" }, { refresh_hash: "[redacted]" }],
      // Any name containing token, secret, password or passphrase (issue 13), counts included.
      token_count: "[redacted]"
    })
  })

  it("replaces a secret key's whole value, even an object", () => {
    expect(redact({ secret: { nested: "x" } })).toStrictEqual({ secret: "[redacted]" })
  })

  it.prop("redacts exactly the values under secret keys", [values], ([input]) => {
    expectRedacted(input, redact(input))
  })

  it.prop("never changes its input", [values], ([input]) => {
    const before = structuredClone(input)
    redact(input)
    expect(input).toStrictEqual(before)
  })

  it.prop("is idempotent", [values], ([input]) => {
    const once = redact(input)
    expect(redact(once)).toStrictEqual(once)
  })
})
