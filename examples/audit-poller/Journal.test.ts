/**
 * The journal's promise: whatever a kill leaves behind, the next load resumes so that every
 * record ends up in the sink once. The kills are staged here, at the worst moments, by leaving
 * the files as a killed process would.
 */
import { expect, it } from "@effect/vitest"
import { Effect, Option } from "effect"
import { readFileSync, writeFileSync } from "node:fs"
import { useTempDirectory } from "../../test-support/examples.js"
import { type JournalFiles, makeJournal } from "./Journal.js"

const file = useTempDirectory()
let journals = 0
const freshFiles = (): JournalFiles => {
  journals += 1
  return { sink: file(`audit-${journals}.jsonl`), checkpoint: file(`checkpoint-${journals}.json`) }
}

const record = (id: string) => ({ id })

/** One page as `AuditPoller` handles it: load, then deliver and save the token past the page. */
const page = (files: JournalFiles, ids: ReadonlyArray<string>, token: string) => {
  const journal = makeJournal(files)
  return Effect.zipRight(journal.cursor.load, Effect.zipRight(journal.deliver(ids.map(record)), journal.cursor.save(token)))
}

const sinkIds = (files: JournalFiles) =>
  readFileSync(files.sink, "utf8").split("\n").filter((line) => line !== "").map((line) => (JSON.parse(line) as { id: string }).id)

it.effect("starts from the beginning, then resumes after the last saved token", () =>
  Effect.gen(function*() {
    const files = freshFiles()
    expect(yield* makeJournal(files).cursor.load).toEqual(Option.none())
    yield* page(files, ["a", "b"], "after-b")
    yield* page(files, ["c"], "after-c")
    expect(yield* makeJournal(files).cursor.load).toEqual(Option.some("after-c"))
    expect(sinkIds(files)).toEqual(["a", "b", "c"])
  }))

it.effect("drops a page delivered by a run killed before it saved its token", () =>
  Effect.gen(function*() {
    const files = freshFiles()
    yield* page(files, ["a", "b"], "after-b")
    // The killed run: its page is in the sink (the last line torn), its token is not saved, and a
    // half-written next checkpoint lies beside the old one.
    const killed = makeJournal(files)
    yield* killed.cursor.load
    yield* killed.deliver([record("c"), record("d")])
    writeFileSync(files.sink, readFileSync(files.sink, "utf8") + "{\"id\":\"e")
    writeFileSync(`${files.checkpoint}.next`, "{\"page_tok")

    const restarted = makeJournal(files)
    expect(yield* restarted.cursor.load).toEqual(Option.some("after-b"))
    expect(sinkIds(files)).toEqual(["a", "b"])
    yield* Effect.zipRight(restarted.deliver([record("c"), record("d")]), restarted.cursor.save("after-d"))
    expect(sinkIds(files)).toEqual(["a", "b", "c", "d"])
    expect(yield* makeJournal(files).cursor.load).toEqual(Option.some("after-d"))
  }))

it.effect("refuses to resume over a sink that lost lines", () =>
  Effect.gen(function*() {
    const files = freshFiles()
    yield* page(files, ["a", "b"], "after-b")
    writeFileSync(files.sink, "")
    const failure = yield* Effect.flip(makeJournal(files).cursor.load)
    expect(failure).toMatchObject({ _tag: "PollerFileError", path: files.sink })
  }))

it.effect("refuses a checkpoint it did not write", () =>
  Effect.gen(function*() {
    const files = freshFiles()
    writeFileSync(files.checkpoint, "{\"page_token\": 7}")
    const failure = yield* Effect.flip(makeJournal(files).cursor.load)
    expect(failure).toMatchObject({ _tag: "PollerFileError", path: files.checkpoint })
  }))
