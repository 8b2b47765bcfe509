import { describe, expect, it } from "@effect/vitest"
import { DateTime } from "effect"
import * as Change from "../../src/dwaccounts/Change.js"
import type { DwAccountId } from "../../src/dwaccounts/Domain.js"
import type { OrganizationId } from "../../src/shared/Ids.js"

const created = DateTime.unsafeMake("2025-01-01T00:00:00Z")
const later = DateTime.unsafeMake("2025-02-01T00:00:00Z")

const account = Change.initial({
  id: "0d3f8a7e-2b1c-4c5d-9e8f-102132435465" as DwAccountId,
  organization_id: "org-1" as OrganizationId,
  name: "Production",
  username: null,
  now: created
})

describe("Change.initial", () => {
  it("starts without credentials, with the ETag of its state", () => {
    expect(account).toMatchObject({ public_key_fingerprint: null, credentials_updated_at: null, authentication_method: "key_pair" })
    expect(account.etag).toBe(Change.etagOf(account))
  })
})

describe("Change.apply", () => {
  it("is undefined when nothing would change: no write, no audit record", () => {
    expect(Change.apply(account, {}, later)).toBeUndefined()
    expect(Change.apply(account, { name: "Production" }, later)).toBeUndefined()
  })

  it("a rename changes the name, the update time and the ETag, and nothing about the credentials", () => {
    const renamed = Change.apply(account, { name: "Warehouse" }, later)!
    expect(renamed).toMatchObject({ name: "Warehouse", updated_at: later, credentials_updated_at: null })
    expect(renamed.etag).not.toBe(account.etag)
    expect(renamed.created_at).toEqual(created)
  })

  it("new credentials are always a change, even with the same key: the update time is part of the state", () => {
    const first = Change.apply(account, { publicKeyFingerprint: "SHA256:abc", username: "LOADER" }, created)!
    const again = Change.apply(first, { publicKeyFingerprint: "SHA256:abc" }, later)!
    expect(again).toMatchObject({ public_key_fingerprint: "SHA256:abc", username: "LOADER", credentials_updated_at: later })
    expect(again.etag).not.toBe(first.etag)
  })

  it("the ETag depends only on the editable state, not on when it was reached", () => {
    const viaRename = Change.apply(account, { name: "Warehouse" }, later)!
    const sameStateLater = Change.apply(account, { name: "Warehouse" }, DateTime.unsafeMake("2026-01-01T00:00:00Z"))!
    expect(sameStateLater.etag).toBe(viaRename.etag)
  })
})

describe("Change.auditValues", () => {
  it("names the key by its fingerprint and carries nothing else about it", () => {
    const rotated = Change.apply(account, { publicKeyFingerprint: "SHA256:abc" }, later)!
    expect(Change.auditValues(rotated)).toEqual({
      name: "Production",
      authentication_method: "key_pair",
      username: null,
      public_key_fingerprint: "SHA256:abc"
    })
  })
})
