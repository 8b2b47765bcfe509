/** Warehouse accounts and their credentials through the real server, in v2 and the deprecated v1. */
import { Actor, DwAccount, DwAccounts } from "@costline/core"
import { expectNoKeyMaterial, TEST_KEY_PASSPHRASE, testKey } from "@costline/store-contract"
import { layer } from "@effect/vitest"
import { Effect, Redacted } from "effect"
import { randomUUID } from "node:crypto"
import { expect } from "vitest"
import { call, makeTestServer, seedTenant } from "./support/TestServer.js"

type Tenant = Effect.Effect.Success<typeof seedTenant>

const newAccount = (tenant: Tenant) =>
  Effect.flatMap(DwAccounts.DwAccounts, (accounts) =>
    accounts.create(Actor.Actor.system(), tenant.id, new DwAccount.CreateDwAccount({ name: "Production" })))

/** Call options of the tenant's admin key. */
const asAdmin = (tenant: Tenant) => ({ token: tenant.adminKey, tenant: tenant.id })

const keyPair = (private_key: string, extra: Record<string, unknown> = {}) => ({
  credentials: { authentication_method: "key_pair", private_key, ...extra }
})

const connectionRecords = (tenant: Tenant) =>
  Effect.map(
    call("GET", "/v2/audit-logs?resource__in=connections", asAdmin(tenant)),
    (reply) => reply.body.items
  )

layer(makeTestServer(), { excludeTestServices: true })("warehouse accounts", (it) => {
  it.effect("GET /v2/dw-accounts/{id} shows the account with an ETag and no credentials yet", () =>
    Effect.gen(function*() {
      const tenant = yield* seedTenant
      const account = yield* newAccount(tenant)
      const reply = yield* call("GET", `/v2/dw-accounts/${account.id}`, asAdmin(tenant))
      expect(reply.status).toBe(200)
      expect(Object.keys(reply.body).sort()).toEqual([
        "authentication_method",
        "create_time",
        "credentials_update_time",
        "etag",
        "id",
        "name",
        "public_key_fingerprint",
        "update_time",
        "username"
      ])
      expect(reply.body).toMatchObject({ name: "Production", public_key_fingerprint: null, username: null })
      expect(reply.headers.get("etag")).toBe(reply.body.etag)
    }))

  it.effect("PATCH replaces the key: the answer shows its fingerprint, never the key; the audit names no secret", () =>
    Effect.gen(function*() {
      const tenant = yield* seedTenant
      const account = yield* newAccount(tenant)
      const reply = yield* call("PATCH", `/v2/dw-accounts/${account.id}`, {
        token: tenant.adminKey,
        tenant: tenant.id,
        headers: { "if-match": account.etag },
        json: keyPair(testKey().pkcs1Encrypted, { username: "LOADER", private_key_passphrase: TEST_KEY_PASSPHRASE })
      })
      expect(reply.status).toBe(200)
      expect(reply.body).toMatchObject({ username: "LOADER", public_key_fingerprint: testKey().fingerprint })
      expect(reply.headers.get("etag")).toBe(reply.body.etag)
      expect(reply.body.etag).not.toBe(account.etag)
      expectNoKeyMaterial(reply.text)

      const records = yield* connectionRecords(tenant)
      expect(records.at(-1)).toMatchObject({
        table_name: "dw_accounts",
        operation: "update",
        record_id: account.id,
        new_values: { public_key_fingerprint: testKey().fingerprint }
      })
      expectNoKeyMaterial(records)
      const opened = yield* Effect.flatMap(DwAccounts.DwAccounts, (accounts) => accounts.openPrivateKey(tenant.id, account.id))
      expect(Redacted.value(opened)).toBe(testKey().pkcs8)
    }))

  it.effect("the one-line form of a key, with spaces for newlines, is accepted", () =>
    Effect.gen(function*() {
      const tenant = yield* seedTenant
      const account = yield* newAccount(tenant)
      const oneLine = testKey().pkcs8.trim().replaceAll("\n", " ")
      const reply = yield* call("PATCH", `/v2/dw-accounts/${account.id}`, { ...asAdmin(tenant), json: keyPair(oneLine) })
      expect(reply.status).toBe(200)
      expect(reply.body.public_key_fingerprint).toBe(testKey().fingerprint)
    }))

  it.effect("If-Match: stale or weak → 412, * → 200, malformed → 422; without it the patch applies", () =>
    Effect.gen(function*() {
      const tenant = yield* seedTenant
      const account = yield* newAccount(tenant)
      const rename = (name: string, headers: Record<string, string> = {}) =>
        call("PATCH", `/v2/dw-accounts/${account.id}`, { ...asAdmin(tenant), headers, json: { name } })

      const renamed = yield* rename("Renamed", { "if-match": account.etag })
      expect(renamed.status).toBe(200)
      const stale = yield* rename("Stale", { "if-match": account.etag })
      expect(stale.status).toBe(412)
      expect(stale.body.code).toBe("precondition_failed")
      expect((yield* rename("Weak", { "if-match": `W/${renamed.body.etag}` })).status).toBe(412)
      expect((yield* rename("Any", { "if-match": "*" })).status).toBe(200)
      const malformed = yield* rename("Bad", { "if-match": "not-quoted" })
      expect(malformed.status).toBe(422)
      expect(malformed.body.details[0].field).toBe("header.if-match")
      expect((yield* rename("Unconditional")).body.name).toBe("Unconditional")
    }))

  it.effect("bad keys and bad patches are 422s that say which field and why; nothing changes", () =>
    Effect.gen(function*() {
      const tenant = yield* seedTenant
      const account = yield* newAccount(tenant)
      const patch = (json: unknown) => call("PATCH", `/v2/dw-accounts/${account.id}`, { ...asAdmin(tenant), json })
      const issueOf = (reply: { body: { details: ReadonlyArray<{ field: string; issue: string }> } }) =>
        reply.body.details.map(({ field, issue }) => ({ field, issue }))

      const wrongPassphrase = yield* patch(keyPair(testKey().pkcs1Encrypted, { private_key_passphrase: "nope" }))
      expect(wrongPassphrase.status).toBe(422)
      expect(issueOf(wrongPassphrase)).toEqual([{ field: "body.credentials.private_key_passphrase", issue: "incorrect" }])
      expect(wrongPassphrase.text).not.toContain("nope")
      const missingPassphrase = yield* patch(keyPair(testKey().pkcs1Encrypted))
      expect(issueOf(missingPassphrase)).toEqual([{ field: "body.credentials.private_key_passphrase", issue: "required" }])
      const garbage = yield* patch(keyPair("-----BEGIN PRIVATE KEY-----\n!!!\n-----END PRIVATE KEY-----"))
      expect(issueOf(garbage)).toEqual([{ field: "body.credentials.private_key", issue: "malformed" }])
      const misspelt = yield* patch({ private_key: testKey().pkcs8 })
      expect(misspelt.status).toBe(422)
      expect(issueOf(misspelt)).toEqual([{ field: "body.private_key", issue: "unexpected" }])
      const nullName = yield* patch({ name: null })
      expect(issueOf(nullName)[0]!.field).toBe("body.name")

      const after = yield* call("GET", `/v2/dw-accounts/${account.id}`, asAdmin(tenant))
      expect(after.body.etag).toBe(account.etag)
      expect(yield* connectionRecords(tenant)).toHaveLength(1)
    }))

  it.effect("no 422 quotes a secret: array, object and number values, v2 and v1, nor a missing field's input", () =>
    Effect.gen(function*() {
      const tenant = yield* seedTenant
      const account = yield* newAccount(tenant)
      const pem = testKey().pkcs8
      const secrets = [pem.slice(0, 40), "PASSPHRASE-9731", "864209753", "TOKEN-5150"]
      const expectNoSecret = (reply: { status: number; text: string }) => {
        expect(reply.status).toBe(422)
        for (const secret of secrets) expect(reply.text).not.toContain(secret)
        expect(reply.text).not.toContain("PRIVATE KEY")
        expectNoKeyMaterial(reply.text)
      }
      const patch = (json: unknown) => call("PATCH", `/v2/dw-accounts/${account.id}`, { ...asAdmin(tenant), json })
      const put = (json: unknown) => call("PUT", `/api/dw-accounts/${account.id}/credentials`, { token: tenant.adminKey, json })

      const asArray = yield* patch(keyPair([pem] as unknown as string))
      expectNoSecret(asArray)
      expect(asArray.body.details).toEqual([
        { field: "body.credentials.private_key", issue: "invalid_type", message: "Expected string" }
      ])
      expect(asArray.body.detail).toBe("body.credentials.private_key: Expected string")
      expectNoSecret(yield* patch(keyPair({ pem } as unknown as string, { private_key_passphrase: ["PASSPHRASE-9731"] })))
      expectNoSecret(yield* patch(keyPair(864209753 as unknown as string, { private_key_passphrase: { p: "PASSPHRASE-9731" } })))
      // A secret member of an object that is itself invalid as a whole.
      expectNoSecret(yield* patch({ credentials: [{ private_key: pem, private_key_passphrase: "PASSPHRASE-9731" }] }))
      expectNoSecret(yield* patch({ name: 1, api_token: "TOKEN-5150" }))

      const v1Array = yield* put({ private_key: [pem], private_key_passphrase: 864209753 })
      expectNoSecret(v1Array)
      expect(v1Array.body.detail).toEqual([
        { type: "string_type", loc: ["body", "private_key"], msg: "Expected string", input: "[redacted]" },
        { type: "value_error", loc: ["body", "private_key_passphrase"], msg: "Expected string | null", input: "[redacted]" }
      ])
      const v1Missing = yield* put({ private_key_passphrase: "PASSPHRASE-9731" })
      expectNoSecret(v1Missing)
      expect(v1Missing.body.detail).toEqual([
        { type: "missing", loc: ["body", "private_key"], msg: "is required", input: { private_key_passphrase: "[redacted]" }, url: "https://errors.pydantic.dev/2.10/v/missing" }
      ])
      expectNoSecret(yield* put({ private_key: { nested: [pem] }, client_secret: "TOKEN-5150" }))
    }))
  it.effect("PUT /api/dw-accounts/{id}/credentials is the route of a path that also fits PUT /api/{organization_id}/teams/{team_id}", () =>
    Effect.gen(function*() {
      const tenant = yield* seedTenant
      // `/api/dw-accounts/teams/credentials` fits both; the literal `dw-accounts` wins, as in the
      // platform router, though the teams route is declared first. The teams route would answer
      // 403 (the key's organization is not `dw-accounts`); the credentials route rejects the body,
      // and its error names the credentials' field (one route rule for serving and describing).
      const reply = yield* call("PUT", "/api/dw-accounts/teams/credentials", { token: tenant.adminKey, json: {} })
      expect(reply.status).toBe(422)
      expect(reply.body.detail.map((issue: { readonly loc: ReadonlyArray<string> }) => issue.loc)).toEqual([["body", "private_key"]])
    }))

  it.effect("an echoed value longer than 1,024 characters of JSON is left out of v1 input and v2 messages", () =>
    Effect.gen(function*() {
      const tenant = yield* seedTenant
      const account = yield* newAccount(tenant)
      const long = "L".repeat(5_000)
      const v1 = yield* call("PUT", `/api/dw-accounts/${account.id}/credentials`, {
        token: tenant.adminKey,
        json: { note: long }
      })
      expect(v1.status).toBe(422)
      expect(v1.text).not.toContain(long.slice(0, 1_025))
      expect(v1.body.detail[0].input).toMatch(/^\[not shown: \d+ characters, over 1024\]$/)
      const short = yield* call("PUT", `/api/dw-accounts/${account.id}/credentials`, {
        token: tenant.adminKey,
        json: { note: "short" }
      })
      // `note` is no member of the body: refused as well (issue 16), its value echoed.
      expect(short.body.detail).toHaveLength(2)
      expect(short.body.detail).toEqual(expect.arrayContaining([
        expect.objectContaining({ type: "missing", input: { note: "short" } }),
        expect.objectContaining({ type: "extra_forbidden", loc: ["body", "note"], input: "short" })
      ]))

      const v2 = yield* call("PATCH", `/v2/dw-accounts/${account.id}`, { ...asAdmin(tenant), json: { name: [long] } })
      expect(v2.status).toBe(422)
      expect(v2.text).not.toContain(long.slice(0, 1_025))
      expect(v2.body.details[0]).toMatchObject({ field: "body.name", issue: "invalid_type", message: "Expected string" })
    }))

  it.effect("only writers of dw_accounts may patch; a refusal is audited without the key", () =>
    Effect.gen(function*() {
      const tenant = yield* seedTenant
      const account = yield* newAccount(tenant)
      const editor = yield* tenant.userSession("editor")
      const reply = yield* call("PATCH", `/v2/dw-accounts/${account.id}`, {
        token: editor.token,
        tenant: tenant.id,
        json: keyPair(testKey().pkcs8)
      })
      expect(reply.status).toBe(403)
      const records = yield* connectionRecords(tenant)
      expect(records.at(-1)).toMatchObject({
        status: "failure",
        operation: "update",
        record_id: account.id,
        changed_by: editor.email,
        // What was sent, with the key members redacted by the audit log.
        new_values: { credentials: { authentication_method: "key_pair", private_key: "[redacted]" } }
      })
      expectNoKeyMaterial(records)
      const read = yield* call("GET", `/v2/dw-accounts/${account.id}`, { token: editor.token, tenant: tenant.id })
      expect(read.status).toBe(200)
    }))

  it.effect("another tenant's account, or an unknown one, is a 404", () =>
    Effect.gen(function*() {
      const tenant = yield* seedTenant
      const other = yield* seedTenant
      const account = yield* newAccount(tenant)
      for (const id of [account.id, randomUUID(), "not-a-uuid"]) {
        const read = yield* call("GET", `/v2/dw-accounts/${id}`, asAdmin(other))
        expect(read.status).toBe(404)
        const patched = yield* call("PATCH", `/v2/dw-accounts/${id}`, { ...asAdmin(other), json: { name: "Mine" } })
        expect(patched.status).toBe(404)
      }
    }))

  it.effect("v1 PUT /api/dw-accounts/{uuid}/credentials answers {success: true} for the key's own tenant, deprecated", () =>
    Effect.gen(function*() {
      const tenant = yield* seedTenant
      const account = yield* newAccount(tenant)
      const put = (json: unknown, token = tenant.adminKey, id: string = account.id) =>
        call("PUT", `/api/dw-accounts/${id}/credentials`, { token, json })

      const reply = yield* put({ private_key: testKey().pkcs1Encrypted, private_key_passphrase: TEST_KEY_PASSPHRASE })
      expect(reply.status).toBe(200)
      expect(reply.body).toEqual({ success: true })
      expect(reply.headers.get("deprecation")).not.toBeNull()
      expect(reply.headers.get("link")).toBe(`</v2/dw-accounts/${account.id}>; rel="successor-version"`)
      const read = yield* call("GET", `/v2/dw-accounts/${account.id}`, asAdmin(tenant))
      expect(read.body.public_key_fingerprint).toBe(testKey().fingerprint)

      const plainWithPassphrase = yield* put({ private_key: testKey().pkcs8, private_key_passphrase: "extra" })
      expect(plainWithPassphrase.status).toBe(422)
      expect(plainWithPassphrase.body.detail).toMatchObject([{ loc: ["body", "private_key_passphrase"] }])
      const missing = yield* put({})
      expect(missing.body.detail).toMatchObject([{ type: "missing", loc: ["body", "private_key"] }])

      const other = yield* seedTenant
      const foreign = yield* put({ private_key: testKey().pkcs8 }, other.adminKey)
      expect(foreign.status).toBe(404)
      expect(foreign.body).toEqual({ detail: `dw account ${account.id} not found` })
      expect((yield* put({ private_key: testKey().pkcs8 }, "clk_nonsense")).status).toBe(401)
      const notUuid = yield* put({ private_key: testKey().pkcs8 }, tenant.adminKey, "not-a-uuid")
      expect(notUuid.status).toBe(404)
    }))
})
