/**
 * @costline/core/testing: what store implementations test themselves with. Import it from test
 * files only: it depends on `vitest` and `@effect/vitest`.
 */
export {
  type ContractServices,
  type Drained,
  drainExport,
  expectPortablePageTokens,
  freshOrganization,
  ids,
  keyActor,
  memberActor,
  recordChange,
  userActor
} from "./Fixtures.js"
export { type ContractOptions, repositoryContract } from "./RepositoryContract.js"
export {
  expectEveryUnconditionalTeamUpdate,
  expectOneAcceptanceOfAnInvitation,
  expectOneOfConcurrentDuplicates,
  expectOneTeamUpdatePerETag
} from "./AccessConcurrency.js"
export { usageConcurrencyContract } from "./UsageConcurrency.js"
export { expectSealedAtRest, type SealedColumn } from "./CredentialsAtRest.js"
export { credentialsConcurrencyContract } from "./CredentialsConcurrency.js"
export { contractSecrets, expectNoKeyMaterial, TEST_KEY_PASSPHRASE, testKey } from "./SecretsFixtures.js"
export { dwIngestContract } from "./DwIngestContract.js"
export * as DwExportGenerator from "../intelligence/ExportGenerator.js"
