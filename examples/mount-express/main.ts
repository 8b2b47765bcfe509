/** Runs the Express example: `node examples/dist/mount-express/main.js` (PORT, default 3000). */
import { makeHandler } from "@costline/http"
import { announce, closeOnSignal, COST_PREFIX, hostSetup } from "../shared/host.js"
import { createApp } from "./app.js"

const { port, store, tenant } = await hostSetup()
const costline = makeHandler({ store, basePath: COST_PREFIX })

const server = createApp(costline).listen(port, "127.0.0.1", () => announce(`http://127.0.0.1:${port}`, tenant))
closeOnSignal(() => new Promise((resolve) => server.close(resolve)), costline)
