import { makeHandler } from "@costline/http"
import { createServer } from "node:http"
import { afterAll, describe } from "vitest"
import { fetchFrom, hostAndCostlineTests, useListening, useSqliteStore, useTenant } from "../../test-support/examples.js"
import { COST_PREFIX } from "../shared/host.js"
import { createApp } from "./app.js"

describe("costline mounted in Express", () => {
  const store = useSqliteStore()
  const tenant = useTenant(store)
  const costline = makeHandler({ store, basePath: COST_PREFIX })
  afterAll(() => costline.dispose())
  const origin = useListening(createServer(createApp(costline)))

  hostAndCostlineTests(fetchFrom(origin), tenant)
})
