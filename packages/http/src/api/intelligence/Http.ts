/** Handler of `POST /v2/dw-ingestions`: core's DwIngest over the files' text, audited there as an `organization` event. */
import { DwIngest } from "@costline/core"
import { Effect, Stream } from "effect"
import { CostlineApi } from "../Api.js"
import { Caller } from "../Caller.js"
import * as Group from "../Group.js"

/** The text in slices: the reader's cost does not depend on how the text arrives, but its memory does. */
const source = (file: { readonly format: "csv" | "jsonl"; readonly content: string }) => ({
  format: file.format,
  open: () => Stream.fromIterable(slices(file.content))
})

const SLICE = 64 * 1024

function* slices(text: string) {
  for (let at = 0; at < text.length; at += SLICE) yield text.slice(at, at + SLICE)
}

export const IntelligenceHttpLive = Group.group(CostlineApi, "intelligence", (handlers) =>
  Effect.gen(function*() {
    const ingest = yield* DwIngest.DwIngest
    return handlers.handle("ingestDw", ({ payload }) =>
      Effect.gen(function*() {
        const caller = yield* Caller
        return yield* ingest.run(caller.actor, caller.organizationId, {
          metering: source(payload.metering),
          queries: source(payload.queries),
          attribution: payload.attribution === undefined ? undefined : source(payload.attribution)
        }, { windowDays: payload.window_days })
      }))
  }))
