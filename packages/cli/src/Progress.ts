/**
 * A progress line for commands that read large files: rewritten in place on a terminal, and
 * nothing at all when the output is a pipe or a log file, where it would only be noise.
 */
import { Effect } from "effect"

export interface ProgressOutput {
  readonly isTTY?: boolean | undefined
  readonly write: (text: string) => unknown
}

export interface Progress {
  /** `bytes` more of the file were read in `phase` (a new phase starts counting from zero). */
  readonly advance: (phase: string, bytes: number) => Effect.Effect<void>
  /** Clears the line, so that what the command prints next starts clean. */
  readonly finish: Effect.Effect<void>
}

const CLEAR_LINE = "\r\x1b[2K"

const megabytes = (bytes: number) => `${(bytes / 1_000_000).toFixed(1)} MB`

export const progressLine = (phase: string, done: number, total: number): string => {
  const percent = total > 0 ? Math.min(100, Math.floor((done / total) * 100)) : 100
  return `${phase}: ${percent}% (${megabytes(done)} of ${megabytes(total)})`
}

export const makeProgress = (totalBytes: number, output: ProgressOutput): Progress => {
  if (output.isTTY !== true) return { advance: () => Effect.void, finish: Effect.void }
  let phase = ""
  let done = 0
  let shown = ""
  return {
    advance: (next, bytes) =>
      Effect.sync(() => {
        if (next !== phase) [phase, done] = [next, 0]
        done += bytes
        const line = progressLine(phase, done, totalBytes)
        // Only when the text changes: a large file arrives in thousands of chunks.
        if (line !== shown) output.write(`${CLEAR_LINE}${line}`)
        shown = line
      }),
    finish: Effect.sync(() => {
      if (shown !== "") output.write(CLEAR_LINE)
    })
  }
}
