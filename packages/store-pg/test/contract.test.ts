import { repositoryContract } from "@costline/store-contract"
import { PgStore } from "@costline/store-pg"
import { useFreshDatabase } from "./support/database.js"

const url = useFreshDatabase()

const open = () => PgStore.layer({ url })
repositoryContract("Postgres", open, { anotherInstance: open })
