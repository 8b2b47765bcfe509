import { dwIngestContract } from "@costline/store-contract"
import { SqliteStore } from "@costline/store-sqlite"
import { useTempDirectory } from "./support/tempDatabase.js"

const databaseFile = useTempDirectory()

dwIngestContract("SQLite :memory:", () => SqliteStore.layer({ filename: ":memory:" }))
dwIngestContract("SQLite file", () => SqliteStore.layer({ filename: databaseFile("dw-ingest.db") }))
