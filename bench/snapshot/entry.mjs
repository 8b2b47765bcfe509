/**
 * The entry of the startup snapshot prototype (see build.mjs). It evaluates every module a SQLite
 * server needs (ServeCli, http, core, the SQLite store) while the snapshot is built; a start from
 * the blob runs `bin.js` (evaluated on first use, as `import()` is in an unsplit bundle) with the
 * real argv.
 */
import { Clock, Effect, Random } from "effect"
import * as v8 from "node:v8"
import "../../packages/cli/dist/ServeCli.js"
import "@costline/store-sqlite"

v8.startupSnapshot.setDeserializeMainFunction(() => {
  if (process.env.COSTLINE_SNAPSHOT_PROBE) {
    // What the build froze: Effect's default Random is seeded when its module is evaluated, and
    // its Clock's nanosecond origin is wall clock minus the monotonic clock at that moment.
    const nanos = Effect.runSync(Clock.currentTimeNanos)
    console.log(`Random.next ${Effect.runSync(Random.next)}; Clock - Date.now: ${Number(nanos / 1_000_000n) - Date.now()} ms`)
    return
  }
  v8.setFlagsFromString("--heap-growing-percent=100")
  // `node --snapshot-blob x serve …` has no script in argv; bin.js reads the command at argv[2].
  process.argv.splice(1, 0, "costline")
  import("../../packages/cli/dist/bin.js")
})
