/**
 * Every text a request carries — body strings and keys, path parameters, query names and values
 * — must be text every store keeps exactly (core's `isStorableText`: no NUL, no unpaired
 * surrogate). Checked once here, ahead of every operation, so the rule holds for all of them,
 * reads included, and both stores answer alike: 422 at the field. (Core's domain schemas refine
 * the fields they store as well, for embedders that call core directly.)
 */
import { type HttpApp, HttpServerRequest } from "@effect/platform"
import { Errors, StorableText } from "@costline/core"
import { Effect, Option } from "effect"
import * as RequestFiber from "../routing/RequestFiber.js"
import * as RouteTable from "../routing/RouteTable.js"
import { hasBody } from "./BodyLimits.js"

/**
 * In JSON text a NUL or a surrogate can only be written as a `\u` escape (raw control characters
 * are invalid JSON, and UTF-8 decoding never yields a lone surrogate): bodies without one are
 * not parsed a second time.
 */
const SUSPECT_ESCAPE = /\\u(?:0000|[dD][89a-fA-F])/

const member = (field: string, key: string) => /^[A-Za-z_][A-Za-z0-9_]*$/.test(key) ? `${field}.${key}` : `${field}[${JSON.stringify(key)}]`

/** The field of the first string (or key) in `value` that is not storable. Depth is bounded by `JsonDepth`. */
const firstUnstorable = (value: unknown, field: string): string | undefined => {
  if (typeof value === "string") return StorableText.isStorableText(value) ? undefined : field
  if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) {
      const found = firstUnstorable(item, `${field}[${index}]`)
      if (found !== undefined) return found
    }
    return undefined
  }
  if (typeof value === "object" && value !== null) {
    for (const [key, item] of Object.entries(value)) {
      if (!StorableText.isStorableText(key)) return field
      const found = firstUnstorable(item, member(field, key))
      if (found !== undefined) return found
    }
  }
  return undefined
}

const inBody = (text: string): string | undefined => {
  if (!SUSPECT_ESCAPE.test(text)) return undefined
  try {
    return firstUnstorable(JSON.parse(text), "body")
  } catch {
    // Not JSON: the endpoint reports it.
    return undefined
  }
}

const inUrl = (routes: RouteTable.RouteTable, request: HttpServerRequest.HttpServerRequest): string | undefined => {
  const route = RouteTable.match(routes, request.method, request.url)
  if (Option.isSome(route)) {
    for (const [name, value] of Object.entries(route.value.params)) if (!StorableText.isStorableText(value)) return `path.${name}`
  }
  const query = request.url.indexOf("?")
  if (query === -1) return undefined
  for (const [name, value] of new URLSearchParams(request.url.slice(query + 1))) {
    if (!StorableText.isStorableText(name) || !StorableText.isStorableText(value)) return `query.${name}`
  }
  return undefined
}

const refuse = (field: string) =>
  Effect.fail(
    new Errors.ValidationFailed({
      message: `${field}: ${StorableText.STORABLE_TEXT_MESSAGE}`,
      details: [new Errors.FieldIssue({ field, issue: "invalid_value", message: StorableText.STORABLE_TEXT_MESSAGE })]
    })
  )

/** The refusal of a request whose path parameters or query carry text no store keeps; undefined when they do not. */
export const refusalInUrl = (
  routes: RouteTable.RouteTable,
  request: HttpServerRequest.HttpServerRequest
): Effect.Effect<never, Errors.ValidationFailed> | undefined => {
  const field = inUrl(routes, request)
  return field === undefined ? undefined : refuse(field)
}

/** `app` behind the rule for a request with a body: its URL, then its body (read here, kept for the endpoint). */
export const make = (routes: RouteTable.RouteTable) => <E, R>(app: HttpApp.Default<E, R>) =>
  RequestFiber.withRequest((request): HttpApp.Default<E | Errors.ValidationFailed, R> => {
    const inPlace = refusalInUrl(routes, request)
    if (inPlace !== undefined) return inPlace
    if (!hasBody(request)) return app
    return Effect.flatMap(Effect.orElseSucceed(request.text, () => ""), (text): HttpApp.Default<E | Errors.ValidationFailed, R> => {
      const field = inBody(text)
      return field === undefined ? app : refuse(field)
    })
  })
