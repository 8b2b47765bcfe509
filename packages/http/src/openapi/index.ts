/** The OpenAPI documents of the API: one per version, derived from the `HttpApi` definition. */
export { type DocumentOptions, type Documents, make } from "./Document.js"
export type * from "./Types.js"
export { operations } from "./Types.js"
export { DEFAULT_TENANT as DEFAULT_EXAMPLE_TENANT, ExampleTenant } from "./Examples.js"
