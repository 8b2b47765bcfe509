/** SSO group mappings: domain, storage contract and service. */
export * from "./Domain.js"
export * from "./Repo.js"
export { ssoGroupEtag, SsoGroups, type SsoGroupWithRoles } from "./SsoGroups.js"
