import { dwIngestContract } from "@costline/core/testing"
import { PgStore } from "@costline/store-pg"
import { useFreshDatabase } from "./support/database.js"

const url = useFreshDatabase()

dwIngestContract("Postgres", () => PgStore.layer({ url, maxConnections: 4 }))
