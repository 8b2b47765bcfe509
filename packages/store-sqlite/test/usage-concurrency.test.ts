import { usageConcurrencyContract } from "@costline/store-contract"
import { SqliteStore } from "@costline/store-sqlite"
import { useTempDirectory } from "./support/tempDatabase.js"

const databaseFile = useTempDirectory()

// Two instances over one file, as a server and the CLI share it.
usageConcurrencyContract("SQLite file", () => SqliteStore.layer({ filename: databaseFile("usage.db") }))
