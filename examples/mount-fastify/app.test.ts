import { makeHandler } from "@costline/http"
import { afterAll, beforeAll, describe } from "vitest"
import { fetchFrom, hostAndCostlineTests, useSqliteStore, useTenant } from "../../test-support/examples.js"
import { COST_PREFIX } from "../shared/host.js"
import { createApp } from "./app.js"

describe("costline mounted in Fastify", () => {
  const store = useSqliteStore()
  const tenant = useTenant(store)
  const costline = makeHandler({ store, basePath: COST_PREFIX })
  const app = createApp(costline)
  let origin = ""
  beforeAll(async () => {
    origin = await app.listen({ port: 0, host: "127.0.0.1" })
  })
  afterAll(async () => {
    await app.close()
    await costline.dispose()
  })

  hostAndCostlineTests(fetchFrom(() => origin), tenant)
})
