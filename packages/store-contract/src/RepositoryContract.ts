/**
 * The repository contract: the behaviour every store must show, checked first at each repository
 * directly (`RepositoryLevelContract`), then through core's real services on top of the store's
 * repositories. A store is done when it passes this suite against a real database, not when it
 * compiles.
 */
import { addEqualityTesters, describe, layer } from "@effect/vitest"
import { type Duration, Layer } from "effect"
import { Core } from "@costline/core"
import { auditContract } from "./AuditContract.js"
import { dwAccountsContract } from "./DwAccountsContract.js"
import { grantRuleContract } from "./GrantRuleContract.js"
import { identityContract } from "./IdentityContract.js"
import type { AnotherInstance } from "./InsightFixtures.js"
import { keyCheckContract } from "./KeyCheckContract.js"
import { insightImportContract } from "./InsightImportContract.js"
import { insightListingContract } from "./InsightListingContract.js"
import { insightsContract } from "./InsightsContract.js"
import { rateLimitContract } from "./RateLimitContract.js"
import { repositoryLevelContract } from "./RepositoryLevelContract.js"
import { contractSecrets } from "./SecretsFixtures.js"
import { organizationEventsContract } from "./OrganizationEventsContract.js"
import { ssoGroupsContract } from "./SsoGroupsContract.js"
import { teamDetailsContract } from "./TeamDetailsContract.js"
import { teamsContract } from "./TeamsContract.js"
import { ticketLinksContract } from "./TicketLinksContract.js"
import { usageAttributionContract } from "./UsageAttributionContract.js"
import { usageGroupsContract } from "./UsageGroupsContract.js"
import { usageRecordsContract } from "./UsageRecordsContract.js"
import { userRolesContract } from "./UserRolesContract.js"

export interface ContractOptions {
  /** For building the store (migrations on a remote database can take a while). */
  readonly timeout?: Duration.DurationInput
  /**
   * Opens a second store over the same database, as another server process would (a file or a
   * server, not `:memory:`). Rules that must hold across instances are then tested across two.
   */
  readonly anotherInstance?: AnotherInstance
}

/**
 * Registers the suite under `name`. `makeStore` is called once; the tests share the store and
 * stay independent by each working in an organization of its own. Tests run under TestClock.
 */
export const repositoryContract = (
  name: string,
  makeStore: () => Layer.Layer<Core.Repositories, unknown>,
  options: ContractOptions = {}
) => {
  // Domain values are Schema classes and DateTimes: compare them with Effect's structural equality.
  addEqualityTesters()
  layer(Core.layerWithSecrets.pipe(Layer.provideMerge(makeStore()), Layer.provideMerge(contractSecrets)), options)(`repository contract: ${name}`, (it) => {
    // The repositories alone first: a store that fails here fails the services below too.
    describe("repository level", () => repositoryLevelContract(it))
    identityContract(it)
    teamsContract(it)
    teamDetailsContract(it)
    ssoGroupsContract(it)
    userRolesContract(it)
    grantRuleContract(it)
    organizationEventsContract(it)
    ticketLinksContract(it)
    usageGroupsContract(it)
    usageRecordsContract(it)
    usageAttributionContract(it)
    dwAccountsContract(it)
    keyCheckContract(it)
    auditContract(it)
    insightsContract(it, options.anotherInstance)
    insightListingContract(it)
    insightImportContract(it)
    rateLimitContract(it)
  })
}
