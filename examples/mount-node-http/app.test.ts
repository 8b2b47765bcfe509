import { makeHandler } from "@costline/http"
import { afterAll, describe } from "vitest"
import { fetchFrom, hostAndCostlineTests, useListening, useSqliteStore, useTenant } from "../../test-support/examples.js"
import { COST_PREFIX } from "../shared/host.js"
import { createHostServer } from "./app.js"

describe("costline mounted in a node:http server", () => {
  const store = useSqliteStore()
  const tenant = useTenant(store)
  const costline = makeHandler({ store, basePath: COST_PREFIX })
  afterAll(() => costline.dispose())
  const origin = useListening(createHostServer(costline))

  hostAndCostlineTests(fetchFrom(origin), tenant)
})
