/**
 * @costline/store-contract: what store implementations, and applications embedding costline,
 * test themselves with. A development dependency: it depends on `vitest` and `@effect/vitest`
 * (peer dependencies), which no runtime package of costline needs.
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
export { repositoryLevelContract } from "./RepositoryLevelContract.js"
export { countKeyReads, type CountedKeyReads, credentialStamp } from "./KeyReads.js"
export { StepCounter, stepsOf } from "./InterpreterSteps.js"
export { idleWarehouse } from "./InsightFixtures.js"
