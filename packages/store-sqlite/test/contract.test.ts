import { repositoryContract } from "@costline/store-contract"
import { SqliteStore } from "@costline/store-sqlite"
import { useTempDirectory } from "./support/tempDatabase.js"

const databaseFile = useTempDirectory()

repositoryContract("SQLite :memory:", () => SqliteStore.layer({ filename: ":memory:" }))

// A file adds what memory lacks: WAL, the write lock shared by the connections of a process, and
// a second connection to the file (another process's view of the same database).
const contractFile = () => SqliteStore.layer({ filename: databaseFile("contract.db") })
repositoryContract("SQLite file", contractFile, { anotherInstance: contractFile })
