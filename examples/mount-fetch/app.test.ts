import { toWebHandler } from "@costline/http"
import { afterAll, describe } from "vitest"
import { hostAndCostlineTests, useSqliteStore, useTenant } from "../../test-support/examples.js"
import { COST_PREFIX } from "../shared/host.js"
import { createApp } from "./app.js"

describe("costline mounted in Hono through its fetch-style handler", () => {
  const store = useSqliteStore()
  const tenant = useTenant(store)
  const costline = toWebHandler({ store, basePath: COST_PREFIX })
  afterAll(() => costline.dispose())
  const app = createApp(costline)

  // No server: a fetch-style app answers Requests directly.
  hostAndCostlineTests((path, init) => app.request(path, init), tenant)
})
