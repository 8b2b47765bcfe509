/**
 * One structured log entry per request: request id (from the log annotations), method, route
 * template (`/v2/teams/:team_id`, never the concrete path: ids and emails stay out), status, duration and the tenant the caller was authenticated for. Never headers,
 * query strings or bodies, which carry tokens, keys and personal data.
 */
import type { HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { SecretFields } from "@costline/core"
import { Cause, Clock, Context, type Fiber, FiberRef, HashMap, HashSet, Inspectable, type Logger, LogLevel } from "effect"
import * as JsonLines from "../logging/JsonLines.js"
import * as RequestFiber from "../routing/RequestFiber.js"

/** Records the organization of the authenticated caller, for the entry (the tenant middlewares). */
export const recordTenant = (fiber: Fiber.RuntimeFiber<unknown, unknown>, organizationId: string): void => {
  RequestFiber.factsOf(fiber).tenant = organizationId
}

export const MESSAGE = "request served"
/** The message as `Effect.logInfo(MESSAGE)` hands it to loggers: its arguments. */
const MESSAGE_PARTS: ReadonlyArray<string> = [MESSAGE]

/**
 * The entry, written by `fiber` in the step that asks, as `Effect.annotateLogs(fields)` followed
 * by `Effect.logInfo(MESSAGE)` would write it: every logger of the fiber gets the same options
 * (its annotations with the entry's fields over them, its spans, the clock's date), under the
 * same minimum level and redaction context (`FiberRuntime.log`). What is left out is what only
 * those two effects cost: setting the annotations on the fiber first (a copy of its FiberRefs
 * and a hash of both annotation maps to compare them) and their interpreter steps; and, when the
 * one logger is costline's JSON lines, the map of the fields and the logger's dispatch. The
 * entry is the last thing the request's fiber logs (`RequestFiber`), so nothing after it misses
 * the fields.
 */
export const log = (
  fiber: Fiber.RuntimeFiber<unknown, unknown>,
  route: string | null,
  request: HttpServerRequest.HttpServerRequest,
  response: HttpServerResponse.HttpServerResponse,
  durationMs: number
): void => {
  if (LogLevel.greaterThan(fiber.getFiberRef(FiberRef.currentMinimumLogLevel), LogLevel.Info)) return
  const loggers = fiber.getFiberRef(FiberRef.currentLoggers)
  if (HashSet.size(loggers) === 0) return
  const facts = RequestFiber.factsOf(fiber)
  const fields = {
    method: request.method,
    route,
    status: response.status,
    duration_ms: durationMs,
    tenant: facts.tenant
  }
  const annotations = fiber.getFiberRef(FiberRef.currentLogAnnotations)
  const spans = fiber.getFiberRef(FiberRef.currentLogSpan)
  const date = new Date(Context.get(fiber.currentDefaultServices, Clock.Clock).unsafeCurrentTimeMillis())
  // The server's case (and a mounted API's): costline's JSON lines are the one logger. The line
  // is what that logger would write, made from the fields as they are, without a map of them.
  const writer = JsonLines.onlyWriter(loggers)
  const line = writer && JsonLines.textLine(MESSAGE, LogLevel.Info, date, annotations, facts.requestId, fields, spans, fiber.id())
  if (writer !== undefined && line !== undefined) return writer.push(SecretFields.scrubPrivateKeys(line))
  const context = fiber.getFiberRefs()
  const options: Logger.Logger.Options<unknown> = {
    fiberId: fiber.id(),
    logLevel: LogLevel.Info,
    message: MESSAGE_PARTS,
    cause: Cause.empty,
    context,
    spans,
    annotations: HashMap.mutate(annotations, (all) => {
      for (const [key, value] of Object.entries(fields)) HashMap.set(all, key, value)
    }),
    date
  }
  Inspectable.withRedactableContext(context, () => {
    for (const logger of loggers) logger.log(options)
  })
}
