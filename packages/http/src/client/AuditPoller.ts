/**
 * Following the audit log exactly once: read every record after the stored page token, page by
 * page, and move the token past each page only once the page has been delivered. Delivery and
 * the move are one uninterruptible step, so a poller stopped by a signal resumes exactly where
 * it left off. (A process killed outright between the two would deliver that one page again on
 * restart; records carry `id` for such a consumer to drop repeats.)
 */
import { FileSystem } from "@effect/platform"
import type { PlatformError } from "@effect/platform/Error"
import { Duration, Effect, Option, Schema } from "effect"
import type { AuditRecordV2 } from "../api/audit/Api.js"
import { ApiProblem } from "./ApiProblem.js"
import type { Client } from "./Client.js"

/** Where a poller keeps its page token between runs. */
export interface Cursor<E = never, R = never> {
  readonly load: Effect.Effect<Option.Option<string>, E, R>
  readonly save: (pageToken: string) => Effect.Effect<void, E, R>
}

/** A cursor that lives as long as the process (a poller that starts from the beginning each run). */
export const memoryCursor = (): Cursor => {
  let token = Option.none<string>()
  return {
    load: Effect.sync(() => token),
    save: (pageToken) => Effect.sync(() => void (token = Option.some(pageToken)))
  }
}

const StateFile = Schema.parseJson(Schema.Struct({ page_token: Schema.String }))

/** The corrupt state file: reading on from a guess could skip or repeat records, so it is refused. */
export class CorruptStateFile extends Schema.TaggedError<CorruptStateFile>()("CorruptStateFile", {
  path: Schema.String
}) {
  override get message() {
    return `${this.path} is not a poller state file; move it away to start from the beginning`
  }
}

/**
 * A cursor in a JSON file, `{"page_token": "..."}`, replaced atomically: written to a temporary
 * file beside it, flushed to disk, then renamed over it. A crash leaves the old state or the
 * new one, never half of one. A missing file means "from the beginning".
 */
export const fileCursor = (path: string): Cursor<PlatformError | CorruptStateFile, FileSystem.FileSystem> => ({
  load: Effect.gen(function*() {
    const fs = yield* FileSystem.FileSystem
    if (!(yield* fs.exists(path))) return Option.none()
    const text = yield* fs.readFileString(path)
    const state = yield* Schema.decode(StateFile)(text).pipe(Effect.mapError(() => new CorruptStateFile({ path })))
    return Option.some(state.page_token)
  }),
  save: (pageToken) =>
    Effect.gen(function*() {
      const fs = yield* FileSystem.FileSystem
      const temporary = `${path}.${process.pid}.tmp`
      yield* Effect.scoped(Effect.gen(function*() {
        const file = yield* fs.open(temporary, { flag: "w", mode: 0o600 })
        yield* file.write(new TextEncoder().encode(`${Schema.encodeSync(StateFile)({ page_token: pageToken })}\n`))
        yield* file.sync
      }))
      yield* fs.rename(temporary, path)
    })
})

export type AuditRecord = typeof AuditRecordV2.Type

export interface PollOptions {
  /** Records per request (1..500). Default 100. */
  readonly pageSize?: number | undefined
}

/**
 * Delivers every record after the cursor, in commit order, one page at a time; returns how
 * many were delivered. Stops at the first empty page (caught up).
 */
export const catchUp = <E, R, CE, CR>(
  client: Client,
  cursor: Cursor<CE, CR>,
  deliver: (records: ReadonlyArray<AuditRecord>) => Effect.Effect<void, E, R>,
  options: PollOptions = {}
) =>
  Effect.gen(function*() {
    let delivered = 0
    for (;;) {
      const token = yield* cursor.load
      const page = yield* client.audit.exportAuditLogs({
        urlParams: { max_results: options.pageSize ?? 100, sort_order: "asc", page_token: Option.getOrUndefined(token) }
      })
      // The rule of the export: a page with records has a token, an empty page has none.
      if (page.items.length === 0 || page.page_token === null) return delivered
      yield* Effect.uninterruptible(Effect.zipRight(deliver(page.items), cursor.save(page.page_token)))
      delivered += page.items.length
    }
  })

export interface FollowOptions extends PollOptions {
  /** Pause between two catch-ups. Default 5 seconds. */
  readonly interval?: Duration.DurationInput | undefined
}

const DEFAULT_INTERVAL = Duration.seconds(5)

/**
 * Runs `poll`, and while it fails with a rate limit or a server whose store is down, waits that
 * out (Retry-After, else `interval`) and runs it again; any other failure ends it. A catch-up is
 * safe to run again: it resumes from the cursor, past every page already delivered.
 */
export const waitingOutTransient = (interval: Duration.DurationInput) =>
<A, E, R>(poll: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> => {
  const attempt: Effect.Effect<A, E, R> = poll.pipe(
    Effect.catchIf(
      (error): error is E & ApiProblem => error instanceof ApiProblem && error.transient,
      (problem) =>
        Effect.sleep(problem.retryAfterSeconds === null ? interval : Duration.seconds(problem.retryAfterSeconds)).pipe(
          Effect.zipRight(Effect.suspend(() => attempt))
        )
    )
  )
  return attempt
}

/** Catches up, pauses, and again, until interrupted; rate limits and outages are waited out. */
export const follow = <E, R, CE, CR>(
  client: Client,
  cursor: Cursor<CE, CR>,
  deliver: (records: ReadonlyArray<AuditRecord>) => Effect.Effect<void, E, R>,
  options: FollowOptions = {}
) => {
  const interval = options.interval ?? DEFAULT_INTERVAL
  return Effect.forever(
    catchUp(client, cursor, deliver, options).pipe(waitingOutTransient(interval), Effect.zipRight(Effect.sleep(interval)))
  )
}
