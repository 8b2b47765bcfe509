/**
 * Where the poller writes, as a cursor and a delivery for the client's `AuditPoller`: a sink of
 * JSON Lines (one audit record a line, only ever appended to) and a checkpoint file.
 *
 * `AuditPoller` delivers a page, then saves the token past it. A process killed between the two
 * would deliver that page again on restart. So the checkpoint stores, with the token, how long
 * the sink was when the token was saved; on load, lines past that length (the page of a run that
 * died before saving its token, perhaps half written) are cut off, and the page is fetched and
 * written again: once.
 */
import type { AuditPoller } from "@costline/http/client"
import { Effect, Option, Schema } from "effect"
import { closeSync, fstatSync, fsyncSync, openSync, readFileSync, renameSync, statSync, truncateSync, writeSync } from "node:fs"

export class PollerFileError extends Schema.TaggedError<PollerFileError>()("PollerFileError", {
  path: Schema.String,
  message: Schema.String
}) {}

const attempt = <A>(path: string, what: string, run: () => A) =>
  Effect.try({
    try: run,
    catch: (cause) => new PollerFileError({ path, message: `cannot ${what} ${path}: ${String(cause)}` })
  })

const isMissing = (cause: unknown) => (cause as NodeJS.ErrnoException | undefined)?.code === "ENOENT"

// ---------------------------------------------------------------------------------------------

export const Checkpoint = Schema.Struct({
  /** Where the next poll starts; null before the first page. */
  page_token: Schema.NullOr(Schema.String),
  /** The sink's length in bytes once the records before `page_token` were in it. */
  sink_bytes: Schema.NonNegativeInt
})
export type Checkpoint = typeof Checkpoint.Type

const START: Checkpoint = { page_token: null, sink_bytes: 0 }

const decodeCheckpoint = Schema.decodeUnknown(Schema.parseJson(Checkpoint))

/** The stored checkpoint; START when there is none yet. */
const readCheckpoint = (path: string) =>
  Effect.try(() => readFileSync(path, "utf8")).pipe(
    Effect.matchEffect({
      onFailure: (cause) =>
        isMissing(cause.error)
          ? Effect.succeed(START)
          : Effect.fail(new PollerFileError({ path, message: `cannot read ${path}: ${String(cause.error)}` })),
      onSuccess: (text) =>
        decodeCheckpoint(text).pipe(
          Effect.mapError(() => new PollerFileError({ path, message: `${path} is not a checkpoint of this poller` }))
        )
    })
  )

/**
 * Replaces the checkpoint atomically: the new one is written and flushed beside it, then renamed
 * over it, so a poller killed at any instant leaves the old checkpoint or the new one, whole.
 */
const writeCheckpoint = (path: string, checkpoint: Checkpoint) =>
  attempt(path, "write", () => {
    const next = `${path}.next`
    const fd = openSync(next, "w")
    try {
      writeSync(fd, JSON.stringify(checkpoint) + "\n")
      fsyncSync(fd)
    } finally {
      closeSync(fd)
    }
    renameSync(next, path)
  })

// ---------------------------------------------------------------------------------------------

/** Appends one line per record and flushes them; returns the sink's new length in bytes. */
const appendRecords = (path: string, records: ReadonlyArray<unknown>) =>
  attempt(path, "append to", () => {
    const fd = openSync(path, "a")
    try {
      writeSync(fd, records.map((record) => JSON.stringify(record) + "\n").join(""))
      fsyncSync(fd)
      return fstatSync(fd).size
    } finally {
      closeSync(fd)
    }
  })

const sizeOf = (path: string) => attempt(path, "read", () => {
  try {
    return statSync(path).size
  } catch (cause) {
    if (isMissing(cause)) return 0
    throw cause
  }
})

/**
 * Cuts the sink back to the checkpoint's length. A sink shorter than that was changed by
 * someone else: resuming would silently leave records out, so it is an error instead.
 */
const truncateSink = (path: string, checkpoint: Checkpoint) =>
  Effect.flatMap(sizeOf(path), (size) => {
    if (size === checkpoint.sink_bytes) return Effect.void
    if (size < checkpoint.sink_bytes) {
      return Effect.fail(new PollerFileError({
        path,
        message: `${path} has ${size} bytes, fewer than the ${checkpoint.sink_bytes} the checkpoint says were written`
      }))
    }
    return attempt(path, "truncate", () => truncateSync(path, checkpoint.sink_bytes))
  })

// ---------------------------------------------------------------------------------------------

export interface JournalFiles {
  readonly sink: string
  readonly checkpoint: string
}

export interface Journal {
  /** Loading cuts the sink back to the checkpoint, then names the token to resume from. */
  readonly cursor: AuditPoller.Cursor<PollerFileError>
  readonly deliver: (records: ReadonlyArray<unknown>) => Effect.Effect<void, PollerFileError>
}

export const makeJournal = (files: JournalFiles): Journal => {
  // The sink's length after the last delivery: what the next saved token is paired with.
  let delivered: number | undefined
  return {
    cursor: {
      load: Effect.gen(function*() {
        const checkpoint = yield* readCheckpoint(files.checkpoint)
        yield* truncateSink(files.sink, checkpoint)
        delivered = checkpoint.sink_bytes
        return Option.fromNullable(checkpoint.page_token)
      }),
      // Suspended: the poller builds this effect before the delivery it follows has run.
      save: (pageToken) =>
        Effect.suspend(() =>
          delivered === undefined
            ? Effect.dieMessage("a token was saved before anything was loaded")
            : writeCheckpoint(files.checkpoint, { page_token: pageToken, sink_bytes: delivered })
        )
    },
    deliver: (records) =>
      Effect.map(appendRecords(files.sink, records), (size) => {
        delivered = size
      })
  }
}
