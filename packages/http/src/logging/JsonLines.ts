/**
 * The server's logger: one JSON object per line on stdout, written in batches. `Logger.json`
 * writes each line with `console.log`, a synchronous write when stdout is a pipe or a file; with
 * the access log on that was one system call per request (about 7% of a cheap request's CPU
 * under load). Here lines collect during a turn of the event loop and leave in one write; what
 * is still pending when the logger's scope closes or the process exits is written then.
 *
 * No line carries a secret: values of secret fields (core's SecretFields rule) in a structured
 * message or in annotations are replaced, and PEM private-key blocks are cut out of the whole
 * line, causes included.
 */
import { SecretFields } from "@costline/core"
import { Effect, HashMap, Layer, Logger } from "effect"

export interface LineBatcher {
  readonly push: (line: string) => void
  /** Writes whatever is pending, now. */
  readonly flush: () => void
}

/** Lines handed to `write` together, once per turn of the event loop (`schedule`). */
export const makeBatcher = (
  write: (chunk: string) => void,
  schedule: (flush: () => void) => void = setImmediate
): LineBatcher => {
  let pending: Array<string> = []
  let scheduled = false
  const flush = () => {
    scheduled = false
    if (pending.length === 0) return
    const chunk = pending.join("\n") + "\n"
    pending = []
    write(chunk)
  }
  return {
    push: (line) => {
      pending.push(line)
      if (!scheduled) {
        scheduled = true
        schedule(flush)
      }
    },
    flush
  }
}

/** One log entry as a JSON line, its secrets redacted. */
export const formatLine = (options: Logger.Logger.Options<unknown>): string =>
  SecretFields.scrubPrivateKeys(Logger.jsonLogger.log({
    ...options,
    message: SecretFields.redactSecretFields(options.message),
    annotations: HashMap.map(options.annotations, (value, key) =>
      SecretFields.isSecretField(key) ? SecretFields.REDACTED : SecretFields.redactSecretFields(value))
  }))

/** JSON lines to stdout in batches; replaces the default logger for as long as the layer lives. */
export const layer: Layer.Layer<never> = Logger.replaceScoped(
  Logger.defaultLogger,
  Effect.acquireRelease(
    Effect.sync(() => {
      const batcher = makeBatcher((chunk) => process.stdout.write(chunk))
      // A process that exits without closing its scopes (process.exit) still writes its last lines.
      process.on("exit", batcher.flush)
      return batcher
    }),
    (batcher) =>
      Effect.sync(() => {
        process.off("exit", batcher.flush)
        batcher.flush()
      })
  ).pipe(Effect.map((batcher) => Logger.make((options) => batcher.push(formatLine(options)))))
)
