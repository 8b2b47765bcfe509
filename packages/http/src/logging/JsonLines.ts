/**
 * The server's logger: one JSON object per line on stdout, written in batches. `Logger.json`
 * writes each line with `console.log`, a synchronous write when stdout is a pipe or a file; with
 * the access log on that was one system call per request (about 7% of a cheap request's CPU
 * under load). Here lines collect for up to FLUSH_DELAY_MS (or until FLUSH_BYTES are pending)
 * and leave in one write: a write per turn of the event loop still cost a system call per
 * request to a server answering one client at a time (~4% of an insight read, issue 19). What
 * is still pending when the logger's scope closes or the process exits is written then.
 *
 * No line carries a secret: values of secret fields (core's SecretFields rule) in a structured
 * message or in annotations are replaced, and PEM private-key blocks are cut out of the whole
 * line, causes included.
 */
import { SecretFields } from "@costline/core"
import { Cause, Effect, FiberId, FiberRef, FiberRefs, HashMap, HashSet, Layer, type List, Logger, type LogLevel, type LogSpan } from "effect"
import * as RequestFiber from "../routing/RequestFiber.js"

export interface LineBatcher {
  readonly push: (line: string) => void
  /** Writes whatever is pending, now. */
  readonly flush: () => void
}

/**
 * The longest a line waits to be written. Short enough that a log follows the server as it
 * happens; long enough that a server answering one client at a time writes once per many requests.
 */
export const FLUSH_DELAY_MS = 10
/** Pending text that is written at once, whatever the delay: the batch's memory stays small. */
export const FLUSH_BYTES = 64 * 1024

/**
 * A timer that does not keep the process alive: a process that exits meanwhile has its lines
 * written by the exit handler (`layer`).
 */
const afterDelay = (flush: () => void): void => {
  setTimeout(flush, FLUSH_DELAY_MS).unref()
}

/** Lines handed to `write` together: FLUSH_DELAY_MS after the first of a batch (`schedule`), or once FLUSH_BYTES are pending. */
export const makeBatcher = (
  write: (chunk: string) => void,
  schedule: (flush: () => void) => void = afterDelay
): LineBatcher => {
  let pending: Array<string> = []
  let pendingBytes = 0
  let scheduled = false
  const flush = () => {
    scheduled = false
    if (pending.length === 0) return
    const chunk = pending.join("\n") + "\n"
    pending = []
    pendingBytes = 0
    write(chunk)
  }
  return {
    push: (line) => {
      pending.push(line)
      // UTF-16 units, not bytes: a bound on memory, not an exact size.
      pendingBytes += line.length + 1
      if (pendingBytes >= FLUSH_BYTES) {
        // The scheduled flush, when it comes, finds nothing or the next batch's start.
        flush()
        return
      }
      if (!scheduled) {
        scheduled = true
        schedule(flush)
      }
    },
    flush
  }
}

/** A value JSON carries as it is: nothing to redact inside it, nothing to convert. */
export type Flat = string | number | boolean | null

const isFlat = (value: unknown): value is Flat =>
  value === null || typeof value === "string" || typeof value === "number" || typeof value === "boolean"

/** The text of a message of strings (one string, or the parts `Effect.log` was given), else undefined. */
const textOf = (message: unknown): string | ReadonlyArray<string> | undefined =>
  typeof message === "string"
    ? message
    : Array.isArray(message) && message.length > 0 && message.every((part) => typeof part === "string")
    ? (message.length === 1 ? message[0] : message)
    : undefined

/**
 * The line of an entry of text, without a cause, whose annotations are flat (the access log's,
 * most lines), with `fields` written after (and over) `annotations` as if they had been added to
 * them: the same JSON `Logger.jsonLogger` writes, built without its general walk (a copy of the
 * annotations, a replacer called for every value). `requestId`, the id of the request that logs
 * (`RequestFiber.requestIdIn`), is its `request_id` annotation unless the annotations carry one.
 * Undefined when an annotation is not flat.
 * PEM blocks are not cut out here (`formatLine` does, on the whole line).
 */
export const textLine = (
  text: string | ReadonlyArray<string>,
  logLevel: LogLevel.LogLevel,
  date: Date,
  annotations: HashMap.HashMap<string, unknown>,
  requestId: string | null,
  fields: Readonly<Record<string, Flat>> | undefined,
  spans: List.List<LogSpan.LogSpan>,
  fiberId: FiberId.FiberId
): string | undefined => {
  const annotated: Record<string, unknown> = {}
  if (requestId !== null && !HashMap.has(annotations, RequestFiber.REQUEST_ID_ANNOTATION)) {
    annotated[RequestFiber.REQUEST_ID_ANNOTATION] = requestId
  }
  for (const [key, value] of annotations) {
    if (!isFlat(value)) return undefined
    annotated[key] = isSecretKey(key) ? SecretFields.REDACTED : value
  }
  if (fields !== undefined) for (const key in fields) annotated[key] = isSecretKey(key) ? SecretFields.REDACTED : fields[key]
  const now = date.getTime()
  const spent: Record<string, number> = {}
  for (const span of spans) spent[span.label] = now - span.startTime
  return JSON.stringify({
    message: text,
    logLevel: logLevel.label,
    timestamp: date.toISOString(),
    annotations: annotated,
    spans: spent,
    fiberId: fiberIdText(fiberId)
  })
}

/** The id of the request that logs an entry (its fiber's facts), else null. */
const requestIdOf = (options: Logger.Logger.Options<unknown>): string | null =>
  RequestFiber.requestIdIn(FiberRefs.getOrDefault(options.context, FiberRef.currentContext))

/** `textLine` of an entry as a logger receives it; undefined for one that is not text, has a cause or an annotation that is not flat. */
const flatLine = (options: Logger.Logger.Options<unknown>, requestId: string | null): string | undefined => {
  const text = textOf(options.message)
  return text === undefined || !Cause.isEmpty(options.cause)
    ? undefined
    : textLine(text, options.logLevel, options.date, options.annotations, requestId, undefined, options.spans, options.fiberId)
}

/** `FiberId.threadName`, without the set it builds for a single fiber's id (`#42`). */
const fiberIdText = (id: FiberId.FiberId): string => id._tag === "Runtime" ? `#${id.id}` : FiberId.threadName(id)

/** Annotation keys come from code, a handful of names: the rule's answer for each is kept. */
const secretKeys = new Map<string, boolean>()
const isSecretKey = (key: string): boolean => {
  let secret = secretKeys.get(key)
  if (secret === undefined) {
    secret = SecretFields.isSecretField(key)
    if (secretKeys.size < 1_000) secretKeys.set(key, secret)
  }
  return secret
}

/**
 * One log entry as a JSON line, its secrets redacted, carrying the id of the request that logged
 * it (`request_id`, from the request's facts: the pipeline does not also annotate the fiber's
 * logs when this is the one logger, `onlyWriter`).
 */
export const formatLine = (options: Logger.Logger.Options<unknown>): string => {
  const requestId = requestIdOf(options)
  return SecretFields.scrubPrivateKeys(flatLine(options, requestId) ?? generalLine(options, requestId))
}

/** `Logger.jsonLogger`'s line of any entry, secrets redacted and the request's id annotated. */
const generalLine = (options: Logger.Logger.Options<unknown>, requestId: string | null): string => {
  const annotations = requestId === null || HashMap.has(options.annotations, RequestFiber.REQUEST_ID_ANNOTATION)
    ? options.annotations
    : HashMap.set(options.annotations, RequestFiber.REQUEST_ID_ANNOTATION, requestId as unknown)
  return Logger.jsonLogger.log({
    ...options,
    message: SecretFields.redactSecretFields(options.message),
    annotations: HashMap.map(annotations, (value, key) =>
      SecretFields.isSecretField(key) ? SecretFields.REDACTED : SecretFields.redactSecretFields(value))
  })
}

/** This module's loggers and their batchers, for `writerOf`. */
const batchers = new WeakMap<Logger.Logger<unknown, void>, LineBatcher>()

/**
 * The batcher `logger` writes to, when it is this module's logger; undefined for any other. Lets
 * an entry whose only logger is this one be written as its line directly (the access log's).
 */
export const writerOf = (logger: Logger.Logger<unknown, unknown>): LineBatcher | undefined =>
  batchers.get(logger as Logger.Logger<unknown, void>)

/** The batcher of this module's logger when it is the only one in `loggers` (a fiber's), else undefined. */
export const onlyWriter = (loggers: HashSet.HashSet<Logger.Logger<unknown, unknown>>): LineBatcher | undefined =>
  HashSet.size(loggers) === 1 ? writerOf(HashSet.values(loggers).next().value!) : undefined

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
  ).pipe(Effect.map((batcher) => {
    const logger = Logger.make((options) => batcher.push(formatLine(options)))
    batchers.set(logger, batcher)
    return logger
  }))
)
