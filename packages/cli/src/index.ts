export { root, run } from "./Cli.js"
export { type Database, DEFAULT_DATABASE_URL, parseDatabaseUrl, resolveDatabaseUrl, storeLayer } from "./Database.js"
export { seedOrganization } from "./Seed.js"
