/**
 * The repository level of the contract: each repository interface of core called directly, with
 * round trips (insert, read, list, conditional update, delete), not-found answers and tenant
 * isolation. The service-level suites build on these behaviours; registered first, these fail
 * first, so a broken store is diagnosed at the repository rather than through a service.
 */
import type { Vitest } from "@effect/vitest"
import type { ContractServices } from "./Fixtures.js"
import { accessRepositories } from "./repositories/Access.js"
import { identityRepositories } from "./repositories/Identity.js"
import { recordRepositories } from "./repositories/Records.js"
import { resourceRepositories } from "./repositories/Resources.js"
import { usageRepositories } from "./repositories/Usage.js"

export const repositoryLevelContract = (it: Vitest.MethodsNonLive<ContractServices>) => {
  identityRepositories(it)
  accessRepositories(it)
  usageRepositories(it)
  resourceRepositories(it)
  recordRepositories(it)
}
