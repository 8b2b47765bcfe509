/** Runs the Fastify example: `node examples/dist/mount-fastify/main.js` (PORT, default 3000). */
import { makeHandler } from "@costline/http"
import { announce, closeOnSignal, COST_PREFIX, hostSetup } from "../shared/host.js"
import { createApp } from "./app.js"

const { port, store, tenant } = await hostSetup()
const costline = makeHandler({ store, basePath: COST_PREFIX })

const app = createApp(costline)
await app.listen({ port, host: "127.0.0.1" })
announce(`http://127.0.0.1:${port}`, tenant)
closeOnSignal(() => app.close(), costline)
