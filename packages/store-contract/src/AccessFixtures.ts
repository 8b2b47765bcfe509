/** Helpers of the identity-and-access contracts: members, teams, SSO groups and paging. */
import { expect } from "@effect/vitest"
import { Effect } from "effect"
import { Actor, SsoGroup, SsoGroups, Team, Teams, Users } from "@costline/core"
import type { Errors, Identity, Ids, Listing, RoleScope } from "@costline/core"

export const system = Actor.Actor.system()

export const grant = (role: Identity.Role, type: Identity.ScopeType, id?: string): RoleScope.RoleGrant => ({
  role,
  scope: id === undefined ? { type } : { type, id }
})

export const addMember = (organizationId: Ids.OrganizationId, email: string, role: Identity.Role = "viewer") =>
  Effect.flatMap(Users.Users, (users) => users.add(system, organizationId, { email, role }))

export const createTeam = (
  organizationId: Ids.OrganizationId,
  name: string,
  options: { readonly allUsers?: boolean; readonly defaultRole?: Team.MemberRole } = {}
) =>
  Effect.flatMap(Teams.Teams, (teams) =>
    teams.create(
      system,
      organizationId,
      new Team.CreateTeam({ name, is_all_users: options.allUsers ?? false, default_member_role: options.defaultRole ?? "viewer" })
    ))

export const createSsoGroup = (organizationId: Ids.OrganizationId, name: string, roles: ReadonlyArray<RoleScope.RoleGrant>) =>
  Effect.flatMap(SsoGroups.SsoGroups, (groups) =>
    groups.create(system, organizationId, new SsoGroup.CreateSsoGroup({ name, roles })))

/** The tag of the failure an effect ends with (it must fail). */
export const failureTag = <A, E extends Errors.DomainError, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.map(Effect.flip(effect), (error) => error._tag)

/**
 * Reads a keyset-paged list to its end, `size` items a page, checking the token rule on the way:
 * a page followed by more has a token, the last page has none.
 */
export const drainPages = <A, E, R>(
  size: number,
  read: (request: Listing.KeysetRequest) => Effect.Effect<Listing.Page<A>, E, R>
) =>
  Effect.gen(function*() {
    const items: Array<A> = []
    const sizes: Array<number> = []
    let pageToken: string | undefined
    for (;;) {
      const page = yield* read({ pageToken, maxResults: size })
      items.push(...page.items)
      sizes.push(page.items.length)
      if (page.page_token === null) return { items, sizes }
      expect(page.items).toHaveLength(size)
      pageToken = page.page_token
    }
  })
