/**
 * What the pipeline learns about a request (its id, its route, its log annotations) is set on
 * the request's fiber once, for the rest of that fiber's life, instead of scoped around the rest
 * of the request with `Effect.provideService` / `Effect.locally` / `Effect.annotateLogs`.
 *
 * Why that is sound: every host serves the API's app as the whole of a fiber forked for one
 * request (`NodeServing.makeHandler` for node hosts and the bundled server, `HttpApp.toWebHandler`), so nothing
 * runs on that fiber after the request that could see a value it should not. Why it matters:
 * each scoped change is an acquire-use-release that restores the previous value, about 23
 * interpreter steps; a set is one (`bench/cpu.ts --steps`).
 */
import { HttpServerRequest } from "@effect/platform"
import { LayeredMap } from "@costline/core"
import { Clock, Context, Effect, type Fiber, FiberRef, HashMap, RuntimeFlags } from "effect"

export type AnyFiber = Fiber.RuntimeFiber<any, any>

/**
 * The request `fiber` serves, read in the step that asks for it (an `Effect.withFiberRuntime`)
 * rather than in a step of its own (`yield* HttpServerRequest`: two).
 */
export const requestOf = (fiber: AnyFiber): HttpServerRequest.HttpServerRequest =>
  Context.unsafeGet(fiber.currentContext, HttpServerRequest.HttpServerRequest)

/** `f` of the request the current fiber serves, and of the fiber, in one step. */
export const withRequest = <A, E, R>(
  f: (request: HttpServerRequest.HttpServerRequest, fiber: AnyFiber) => Effect.Effect<A, E, R>
): Effect.Effect<A, E, R | HttpServerRequest.HttpServerRequest> =>
  Effect.withFiberRuntime<A, E, R | HttpServerRequest.HttpServerRequest>((fiber) => f(requestOf(fiber), fiber))

/**
 * Whether `fiber` runs interruptibly now: its runtime flags (a `FiberRuntime`'s), read in the step
 * that asks (`Effect.checkInterruptible`: one more).
 */
export const isInterruptible = (fiber: AnyFiber): boolean =>
  RuntimeFlags.interruption((fiber as unknown as { readonly currentRuntimeFlags: RuntimeFlags.RuntimeFlags }).currentRuntimeFlags)

/** The time on `fiber`'s clock (a `TestClock` in tests), read in the step that asks (`Clock.currentTimeMillis`: three). */
export const currentTimeMillis = (fiber: AnyFiber): number =>
  Context.get(fiber.currentDefaultServices, Clock.Clock).unsafeCurrentTimeMillis()

/**
 * What the pipeline learns about its request that later steps read: its id (error bodies, audit
 * records), the tenant it was authenticated for (the access log). One mutable record per
 * request, in the request's context, so that learning a fact is an assignment, not a change of
 * the fiber's context or FiberRefs (a copy of either, ~4% of an insight read, issue 19). Steps
 * that see another context (a body request's, a transaction's) share the same record.
 */
export interface Facts {
  requestId: string | null
  tenant: string | null
  /**
   * Headers the request's handler gave its answer (`Respond.setHeaders`: ETag, Location,
   * Cache-Control), which the pipeline sets with its own on whatever the request is answered.
   */
  headers: Record<string, string> | null
  /** Whether the request was counted against its credential's rate limit (`RateLimit`): its answer carries the decision. */
  counted: boolean
  /**
   * The map of the request's context when its host made it for this request alone (`NodeServing`:
   * a `LayeredMap` over the host's services), else null. The dispatch adds to it in place
   * instead of making the request a new context.
   */
  readonly context: LayeredMap.LayeredMap<string, unknown> | null
}

export class RequestFacts extends Context.Tag("@costline/http/RequestFacts")<RequestFacts, Facts>() {}

/** The log annotation that carries a request's id on every line the request logs. */
export const REQUEST_ID_ANNOTATION = "request_id"

/** The id of the request whose context this is (its facts'), else null: every line it logs carries it. */
export const requestIdIn = (context: Context.Context<never>): string | null =>
  (context.unsafeMap.get(RequestFacts.key) as Facts | undefined)?.requestId ?? null

/**
 * The context of a request its host makes for it alone: `base` (the host's services, shared by
 * every request and never written) with the request and a fresh record of its facts over it.
 */
export const ownContext = (base: ReadonlyMap<string, unknown>, request: HttpServerRequest.HttpServerRequest): Context.Context<never> => {
  const map = new LayeredMap.LayeredMap<string, unknown>(base)
  const facts = initialFacts(null, map)
  map.set(HttpServerRequest.HttpServerRequest.key, request)
  map.set(RequestFacts.key, facts)
  return Context.unsafeMake(map)
}

/** The map of `context` when its host made it for this request alone (`ownContext`), else undefined. */
export const ownedMap = (context: Context.Context<never>): LayeredMap.LayeredMap<string, unknown> | undefined => {
  const facts = context.unsafeMap.get(RequestFacts.key) as Facts | undefined
  return facts !== undefined && facts.context === context.unsafeMap ? facts.context : undefined
}

/** A fresh record, of a request whose context its host did not make for it alone. */
export const newFacts = (): Facts => initialFacts(null, null)

/** A request's facts before anything is learnt of it but its id (the record's one shape). */
const initialFacts = (requestId: string | null, context: LayeredMap.LayeredMap<string, unknown> | null): Facts => ({
  requestId,
  tenant: null,
  headers: null,
  counted: false,
  context
})

/** The facts of the request `fiber` serves; outside a request, a fresh record nobody reads again. */
export const factsOf = (fiber: AnyFiber): Facts =>
  (fiber.currentContext.unsafeMap.get(RequestFacts.key) as Facts | undefined) ?? newFacts()

/**
 * Starts the request's facts with its id: in the record its host made with the request's context
 * (`NodeServing`, for every node host and the bundled server), else in one added to the context
 * by the effect returned beside it (a host whose context the platform makes, e.g. `toWebHandler`),
 * undefined when there is nothing to run.
 */
export const begin = (fiber: AnyFiber, requestId: string): readonly [Facts, Effect.Effect<void> | undefined] => {
  const facts = fiber.currentContext.unsafeMap.get(RequestFacts.key) as Facts | undefined
  if (facts === undefined) {
    const made = initialFacts(requestId, null)
    return [made, provide(RequestFacts, made)]
  }
  facts.requestId = requestId
  facts.tenant = null
  facts.headers = null
  facts.counted = false
  return [facts, undefined]
}

/**
 * Records `headers` for the answer of the request `fiber` serves; false outside a request (no
 * facts in its context), where the caller has to add them some other way.
 */
export const addHeaders = (fiber: AnyFiber, headers: Readonly<Record<string, string>>): boolean => {
  const facts = fiber.currentContext.unsafeMap.get(RequestFacts.key) as Facts | undefined
  if (facts === undefined) return false
  recordHeaders(facts, headers)
  return true
}

/** Records `headers` for the answer of the request whose facts these are, over those recorded before. */
export const recordHeaders = (facts: Facts, headers: Readonly<Record<string, string>>): void => {
  facts.headers = facts.headers === null ? { ...headers } : { ...facts.headers, ...headers }
}

/**
 * `effect` with `service` in the request's context: set in place in a context its host made for
 * the request alone (`ownContext`), for the rest of the request, as `provide` sets it; else
 * provided around `effect` (a scoped context change).
 */
export const providing = <I, S, A, E, R>(
  fiber: AnyFiber,
  tag: Context.Tag<I, S>,
  service: NoInfer<S>,
  effect: Effect.Effect<A, E, R>
): Effect.Effect<A, E, Exclude<R, I>> => {
  const owned = ownedMap(fiber.currentContext)
  if (owned === undefined) return Effect.provideService(effect, tag, service)
  owned.set(tag.key, service)
  return effect as Effect.Effect<A, E, Exclude<R, I>>
}

/** Adds `service` to the context of the request's fiber. */
export const provide = <I, S>(tag: Context.Tag<I, S>, service: NoInfer<S>): Effect.Effect<void> =>
  FiberRef.update(FiberRef.currentContext, (context) => Context.add(context, tag, service))

/** Replaces the context of the request's fiber. */
export const setContext = (context: Context.Context<never>): Effect.Effect<void> => FiberRef.set(FiberRef.currentContext, context)

/** Adds log annotations to everything the request's fiber logs from now on. */
export const annotateLogs = (annotations: Readonly<Record<string, unknown>>): Effect.Effect<void> =>
  FiberRef.update(FiberRef.currentLogAnnotations, (current) => {
    let next = current
    for (const key in annotations) next = HashMap.set(next, key, annotations[key])
    return next
  })
