/** Storage contracts of teams and their members. */
import { Context, type Effect, type Option } from "effect"
import type { AlreadyExists, StoreUnavailable } from "../shared/Errors.js"
import type { OrganizationId, TeamId, UserId } from "../shared/Ids.js"
import type { Window } from "../shared/Listing.js"
import type { Team, TeamMember } from "./Domain.js"

type Io<A, E = never> = Effect.Effect<A, E | StoreUnavailable>

/**
 * @since 0.1.0
 * @category tags
 */
export class TeamsRepo extends Context.Tag("@costline/core/TeamsRepo")<
  TeamsRepo,
  {
    /** Fails with AlreadyExists for a second all-users team of the organization. */
    readonly insert: (team: Team) => Io<void, AlreadyExists>
    readonly findById: (organizationId: OrganizationId, id: TeamId) => Io<Option.Option<Team>>
    /**
     * Stores `team` (with its new ETag) if the stored row still has `expected`'s ETag, in one
     * statement; false when it changed meanwhile or is gone.
     */
    readonly update: (team: Team, expected: Team) => Io<boolean>
    readonly findAllUsers: (organizationId: OrganizationId) => Io<Option.Option<Team>>
    /** The teams a user belongs to: those that list them, and the all-users team. */
    readonly listForUser: (organizationId: OrganizationId, userId: UserId) => Io<ReadonlyArray<Team>>
  }
>() {}

/**
 * A membership as stored; reads add the member's current identifier.
 * @since 0.1.0
 * @category models
 */
export type StoredTeamMember = Omit<TeamMember, "identifier">

/**
 * @since 0.1.0
 * @category tags
 */
export class TeamMembersRepo extends Context.Tag("@costline/core/TeamMembersRepo")<
  TeamMembersRepo,
  {
    /** Fails with AlreadyExists when the team already lists this user or group. */
    readonly insert: (organizationId: OrganizationId, member: StoredTeamMember) => Io<void, AlreadyExists>
    /** The team's explicit members, ordered by (added_at, id). */
    readonly list: (organizationId: OrganizationId, teamId: TeamId, window: Window) => Io<ReadonlyArray<TeamMember>>
    readonly count: (organizationId: OrganizationId, teamId: TeamId) => Io<number>
    /** Removes a user from every team; returns the memberships removed. */
    readonly deleteForUser: (organizationId: OrganizationId, userId: UserId) => Io<ReadonlyArray<StoredTeamMember>>
  }
>() {}
