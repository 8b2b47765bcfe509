/** Runs the Hono example: `node examples/dist/mount-fetch/main.js` (PORT, default 3000). */
import { serve } from "@hono/node-server"
import { toWebHandler } from "@costline/http"
import { announce, closeOnSignal, COST_PREFIX, hostSetup } from "../shared/host.js"
import { createApp } from "./app.js"

const { port, store, tenant } = await hostSetup()
const costline = toWebHandler({ store, basePath: COST_PREFIX })

const server = serve({ fetch: createApp(costline).fetch, port, hostname: "127.0.0.1" }, () =>
  announce(`http://127.0.0.1:${port}`, tenant))
closeOnSignal(() => new Promise((resolve) => server.close(resolve)), costline)
