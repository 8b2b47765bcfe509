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
import { Cause, Effect, FiberId, HashMap, Layer, Logger } from "effect"

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

/** An annotation value that JSON carries as it is: nothing to redact inside it, nothing to convert. */
const isFlat = (value: unknown): boolean =>
  value === null || typeof value === "string" || typeof value === "number" || typeof value === "boolean"

/**
 * The line of an entry whose message is text, without a cause, and whose annotations are flat
 * (the access log's, most lines): the same JSON `Logger.jsonLogger` writes, built without its
 * general walk (a copy of the annotations, a replacer called for every value). Undefined for any
 * other entry.
 */
const flatLine = (options: Logger.Logger.Options<unknown>): string | undefined => {
  const { annotations, message } = options
  const text = typeof message === "string"
    ? message
    : Array.isArray(message) && message.length > 0 && message.every((part) => typeof part === "string")
    ? (message.length === 1 ? message[0] : message)
    : undefined
  if (text === undefined || !Cause.isEmpty(options.cause)) return undefined
  const annotated: Record<string, unknown> = {}
  for (const [key, value] of annotations) {
    if (!isFlat(value)) return undefined
    annotated[key] = SecretFields.isSecretField(key) ? SecretFields.REDACTED : value
  }
  const now = options.date.getTime()
  const spans: Record<string, number> = {}
  for (const span of options.spans) spans[span.label] = now - span.startTime
  return JSON.stringify({
    message: text,
    logLevel: options.logLevel.label,
    timestamp: options.date.toISOString(),
    annotations: annotated,
    spans,
    fiberId: FiberId.threadName(options.fiberId)
  })
}

/** One log entry as a JSON line, its secrets redacted. */
export const formatLine = (options: Logger.Logger.Options<unknown>): string =>
  SecretFields.scrubPrivateKeys(flatLine(options) ?? Logger.jsonLogger.log({
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
