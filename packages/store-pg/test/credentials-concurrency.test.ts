import { credentialsConcurrencyContract } from "@costline/store-contract"
import { PgStore } from "@costline/store-pg"
import { useFreshDatabase } from "./support/database.js"

const url = useFreshDatabase()

// Two instances over one database, each with its own pool, as two servers share it.
credentialsConcurrencyContract("Postgres", () => PgStore.layer({ url, maxConnections: 4 }))
