import { dwIngestContract } from "@costline/store-contract"
import { PgStore } from "@costline/store-pg"
import { useFreshDatabase } from "./support/database.js"

const url = useFreshDatabase()

dwIngestContract("Postgres", () => PgStore.layer({ url, maxConnections: 4 }))
