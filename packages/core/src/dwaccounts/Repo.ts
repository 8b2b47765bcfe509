/**
 * Storage contract of warehouse accounts. The sealed private key is stored beside the account but
 * never read with it: only `findCredentials` returns it, for the code that connects to the
 * warehouse, so no listing or response path can leak it by accident.
 */
import { Context, type Effect, type Option } from "effect"
import type { StoreUnavailable } from "../shared/Errors.js"
import type { OrganizationId } from "../shared/Ids.js"
import type { SealedSecret } from "../secrets/Envelope.js"
import type { DwAccount, DwAccountId } from "./Domain.js"

/**
 * @since 0.1.0
 * @category models
 */
export interface DwAccountUpdate {
  /** The etag the caller read; the write is refused if the stored row no longer has it. */
  readonly expectedEtag: string
  /** A new sealed private key, stored in the same write; absent keeps the stored one. */
  readonly credentials?: SealedSecret
}

/**
 * A stored sealed key and the account it belongs to (its AAD).
 * @since 0.1.0
 * @category models
 */
export interface SealedCredentials {
  readonly organization_id: OrganizationId
  readonly id: DwAccountId
  readonly sealed: SealedSecret
}

/**
 * @since 0.1.0
 * @category tags
 */
export class DwAccountsRepo extends Context.Tag("@costline/core/DwAccountsRepo")<
  DwAccountsRepo,
  {
    readonly insert: (account: DwAccount) => Effect.Effect<void, StoreUnavailable>
    readonly findById: (
      organizationId: OrganizationId,
      id: DwAccountId
    ) => Effect.Effect<Option.Option<DwAccount>, StoreUnavailable>
    /**
     * Replaces the stored account (same organization and id) with `account`. False when the row
     * is gone or its etag is no longer `expectedEtag`: the caller answers 404 or 412.
     */
    readonly update: (account: DwAccount, change: DwAccountUpdate) => Effect.Effect<boolean, StoreUnavailable>
    /** The sealed private key; None until credentials are first set. */
    readonly findCredentials: (
      organizationId: OrganizationId,
      id: DwAccountId
    ) => Effect.Effect<Option.Option<SealedSecret>, StoreUnavailable>
    /**
     * Accounts with credentials, across every organization, in (organization_id, id) order,
     * after `after`: for re-sealing under a new master key.
     */
    readonly listSealed: (
      after: Option.Option<{ readonly organizationId: OrganizationId; readonly id: DwAccountId }>,
      limit: number
    ) => Effect.Effect<ReadonlyArray<SealedCredentials>, StoreUnavailable>
    /**
     * Replaces the sealed key with `next` if it is still `current.sealed` (compare-and-set: a
     * key set meanwhile wins). Account etag and times are untouched: the key itself is the same.
     */
    readonly replaceSealed: (current: SealedCredentials, next: SealedSecret) => Effect.Effect<boolean, StoreUnavailable>
  }
>() {}
