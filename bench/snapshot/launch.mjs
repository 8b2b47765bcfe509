#!/usr/bin/env node
/**
 * The startup snapshot prototype's launcher (see build.mjs): `serve` re-executes itself from the blob in
 * $COSTLINE_SNAPSHOT_BLOB with bin/costline.js's heap flags and MALLOC_ARENA_MAX; for the bench's
 * A/B only (no ownership checks, no key, no fallback).
 */
if (process.argv[2] !== "serve" || !process.env.COSTLINE_SNAPSHOT_BLOB) throw new Error("usage: COSTLINE_SNAPSHOT_BLOB=<blob> launch.mjs serve …")
process.execve(
  process.execPath,
  [process.execPath, ...process.execArgv, "--max-semi-space-size=4", "--snapshot-blob", process.env.COSTLINE_SNAPSHOT_BLOB, ...process.argv.slice(2)],
  { MALLOC_ARENA_MAX: "2", ...process.env }
)
