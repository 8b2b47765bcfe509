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
import { Clock, Context, Effect, type Fiber, FiberRef, HashMap } from "effect"

type AnyFiber = Fiber.RuntimeFiber<any, any>

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

/** The time on `fiber`'s clock (a `TestClock` in tests), read in the step that asks (`Clock.currentTimeMillis`: three). */
export const currentTimeMillis = (fiber: AnyFiber): number =>
  Context.get(fiber.currentDefaultServices, Clock.Clock).unsafeCurrentTimeMillis()

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
