/** The in-process handler the CPU measurements drive (`bench/lib/inprocess.mjs`). */
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join, resolve } from "node:path"
import { inject } from "light-my-request"
import { describe, expect, it } from "vitest"
import { handlerOf } from "../lib/inprocess.mjs"

const ROOT = resolve(__dirname, "../..")

describe("handlerOf", () => {
  it("builds the handler with the options of its side (a paired ablation's two sides differ only by them)", async () => {
    const dir = mkdtempSync(join(tmpdir(), "costline-inprocess-"))
    const body = JSON.stringify({ name: "x".repeat(200) })
    const post = (handler: any) =>
      inject(handler, { method: "POST", url: "/v2/teams", headers: { "content-type": "application/json" }, payload: body })
    const defaults = await handlerOf(ROOT, join(dir, "a.db"))
    const small = await handlerOf(ROOT, join(dir, "b.db"), { maxBodyBytes: 64 })
    try {
      // Unauthenticated either way; only the side with the small limit refuses the body first.
      expect((await post(defaults)).statusCode).toBe(401)
      expect((await post(small)).statusCode).toBe(413)
    } finally {
      await defaults.dispose()
      await small.dispose()
      rmSync(dir, { recursive: true, force: true })
    }
  }, 60_000)
})
