/** Storage contract of SSO group mappings (their roles are role assignments of subject `sso_group`). */
import { Context, type Effect, type Option } from "effect"
import type { AlreadyExists, StoreUnavailable } from "../shared/Errors.js"
import type { OrganizationId } from "../shared/Ids.js"
import type { Window } from "../shared/Listing.js"
import type { SsoGroup, SsoGroupId } from "./Domain.js"

type Io<A, E = never> = Effect.Effect<A, E | StoreUnavailable>

/**
 * @since 0.1.0
 * @category tags
 */
export class SsoGroupsRepo extends Context.Tag("@costline/core/SsoGroupsRepo")<
  SsoGroupsRepo,
  {
    /** Fails with AlreadyExists when the organization has a group of that name. */
    readonly insert: (group: SsoGroup) => Io<void, AlreadyExists>
    readonly findById: (organizationId: OrganizationId, id: SsoGroupId) => Io<Option.Option<SsoGroup>>
    /** Exact match: names are compared as the identity provider sends them. */
    readonly findByName: (organizationId: OrganizationId, name: string) => Io<Option.Option<SsoGroup>>
    /**
     * Stores `group` (with its new ETag) if the stored row still has `expected`'s ETag, in one
     * statement; false when it changed or is gone. AlreadyExists when another group has the new name.
     */
    readonly update: (group: SsoGroup, expected: SsoGroup) => Io<boolean, AlreadyExists>
    /** Ordered by (created_at, id). */
    readonly list: (organizationId: OrganizationId, window: Window) => Io<ReadonlyArray<SsoGroup>>
    readonly count: (organizationId: OrganizationId) => Io<number>
  }
>() {}
