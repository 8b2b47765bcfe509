/** A database of its own for each test file: shared with the examples' tests. */
export { useFreshDatabase } from "../../../../test-support/postgres/database.js"
