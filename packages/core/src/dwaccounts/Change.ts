/**
 * What an update does to a warehouse account, as pure functions: the next state, its ETag, and
 * what the audit log keeps of it (never key material: only the public key's fingerprint).
 */
import { DateTime } from "effect"
import * as Audited from "../audit/internal/Audited.js"
import * as ETag from "../shared/ETag.js"
import type { OrganizationId } from "../shared/Ids.js"
import { DwAccount, type DwAccountId } from "./Domain.js"

/**
 * What a request asks to change; absent members stay as they are.
 * @since 0.1.0
 * @category models
 */
export interface AccountChange {
  readonly name?: string | undefined
  readonly username?: string | undefined
  /** Present when the key pair is replaced: the fingerprint of the new key. */
  readonly publicKeyFingerprint?: string | undefined
}

type EditableState = Pick<
  DwAccount,
  "name" | "authentication_method" | "username" | "public_key_fingerprint" | "credentials_updated_at"
>

/**
 * What the audit log records of an account, before and after a change.
 * @since 0.1.0
 * @category utils
 */
export const auditValues = (account: EditableState) => ({
  name: account.name,
  authentication_method: account.authentication_method,
  username: account.username,
  public_key_fingerprint: account.public_key_fingerprint
})

/**
 * Audited as `connections` / `dw_accounts`.
 * @since 0.1.0
 * @category utils
 */
export const DwAccountAudit = Audited.resource<DwAccount>("connections", "dw_accounts", auditValues)

/**
 * Strong ETag of what an update can change. Replacing the key with the same key still changes
 * it: `credentials_updated_at` is part of the representation.
 * @since 0.1.0
 * @category utils
 */
export const etagOf = (account: EditableState): string =>
  ETag.compute({
    ...auditValues(account),
    credentials_updated_at: account.credentials_updated_at === null
      ? null
      : DateTime.formatIso(account.credentials_updated_at)
  })

/**
 * A new account: no credentials until a request sets them.
 * @since 0.1.0
 * @category utils
 */
export const initial = (fields: {
  readonly id: DwAccountId
  readonly organization_id: OrganizationId
  readonly name: string
  readonly username: string | null
  readonly now: DateTime.Utc
}): DwAccount => {
  const state: EditableState = {
    name: fields.name,
    authentication_method: "key_pair",
    username: fields.username,
    public_key_fingerprint: null,
    credentials_updated_at: null
  }
  return new DwAccount({
    id: fields.id,
    organization_id: fields.organization_id,
    ...state,
    created_at: fields.now,
    updated_at: fields.now,
    etag: etagOf(state)
  })
}

/**
 * The account after `change` at `now`, or undefined when nothing would change (then nothing is
 * written and nothing audited). New credentials are always a change, even with the same key.
 * @since 0.1.0
 * @category utils
 */
export const apply = (current: DwAccount, change: AccountChange, now: DateTime.Utc): DwAccount | undefined => {
  const rotated = change.publicKeyFingerprint !== undefined
  const state: EditableState = {
    name: change.name ?? current.name,
    authentication_method: current.authentication_method,
    username: change.username ?? current.username,
    public_key_fingerprint: change.publicKeyFingerprint ?? current.public_key_fingerprint,
    credentials_updated_at: rotated ? now : current.credentials_updated_at
  }
  if (!rotated && state.name === current.name && state.username === current.username) return undefined
  return new DwAccount({ ...current, ...state, updated_at: now, etag: etagOf(state) })
}
