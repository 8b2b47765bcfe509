/** Storage contract of teams. */
import { Context, type Effect, type Option } from "effect"
import type { AlreadyExists, StoreUnavailable } from "../shared/Errors.js"
import type { OrganizationId, TeamId } from "../shared/Ids.js"
import type { Team } from "./Domain.js"

export class TeamsRepo extends Context.Tag("@costline/core/TeamsRepo")<
  TeamsRepo,
  {
    /** Fails with AlreadyExists for a second all-users team of the organization. */
    readonly insert: (team: Team) => Effect.Effect<void, AlreadyExists | StoreUnavailable>
    readonly findById: (organizationId: OrganizationId, id: TeamId) => Effect.Effect<Option.Option<Team>, StoreUnavailable>
  }
>() {}
