/** What the runnable mount examples share: their set-up, their greeting, a clean stop on Ctrl-C. */
import { demoTenant, type DemoTenant } from "./demoTenant.js"
import { storeFromEnvironment } from "./store.js"

/** Where every host example serves the costline API. */
export const COST_PREFIX = "/cost"

export const HOST_GREETING = { message: "hello from the host application" }

/** The port (PORT, default 3000), the store, and a tenant with a fresh admin key in it. */
export const hostSetup = async () => {
  const store = storeFromEnvironment(".costline/examples.db")
  return { port: Number(process.env["PORT"] ?? 3000), store, tenant: await demoTenant(store) }
}

export const announce = (origin: string, tenant: DemoTenant) =>
  console.log(
    [
      `host application on ${origin}, costline under ${origin}${COST_PREFIX}`,
      `  curl -s ${origin}/hello`,
      `  curl -s -H 'Authorization: Bearer ${tenant.apiKey}' -H 'x-tenant-id: ${tenant.organizationId}' ${origin}${COST_PREFIX}/v2/audit-logs`
    ].join("\n")
  )

/** On SIGINT/SIGTERM: stop taking requests, then close costline's store. */
export const closeOnSignal = (stopListening: () => Promise<unknown>, costline: { readonly dispose: () => Promise<void> }) => {
  const stop = async () => {
    await stopListening()
    await costline.dispose()
  }
  process.once("SIGINT", stop)
  process.once("SIGTERM", stop)
}
