/** Runs the node:http example: `node examples/dist/mount-node-http/main.js` (PORT, default 3000). */
import { makeHandler } from "@costline/http"
import { announce, closeOnSignal, COST_PREFIX, hostSetup } from "../shared/host.js"
import { createHostServer } from "./app.js"

const { port, store, tenant } = await hostSetup()
const costline = makeHandler({ store, basePath: COST_PREFIX })

const server = createHostServer(costline).listen(port, "127.0.0.1", () => announce(`http://127.0.0.1:${port}`, tenant))
closeOnSignal(() => new Promise((resolve) => server.close(resolve)), costline)
