/**
 * A store's write transaction as `@effect/sql`'s `makeWithTransaction` runs it (BEGIN, then
 * COMMIT or ROLLBACK, the connection released when it ends; a nested one as a savepoint), without
 * what only tracing reads, for a runtime whose tracing is off (the server's default). There,
 * `makeWithTransaction` copied the request's whole context three times per transaction (the
 * scope merged in by `Scope.extend`, the connection and the span added with `Context.add`) and
 * opened a span nothing records. Here the connection, its scope and its depth are layered over
 * the caller's context (core's `LayeredMap.layeredContext`): no copy. With tracing on, the
 * store's traced transaction (`@effect/sql`'s, with its span) runs the outermost one instead.
 */
import { LayeredMap } from "@costline/core"
import { TransactionConnection } from "@effect/sql/SqlClient"
import type { Connection } from "@effect/sql/SqlConnection"
import type { SqlError } from "@effect/sql/SqlError"
import { Context, Effect, Exit, FiberRef, Option, Scope } from "effect"
import type { WithTransaction } from "./Transactor.js"

/** A statement of the transaction's own (BEGIN, SAVEPOINT, COMMIT, …), on its connection. */
export const runOn = (connection: Connection, statement: string): Effect.Effect<ReadonlyArray<unknown>, SqlError> =>
  connection.execute(statement, [], undefined)

/** `effect` with `entries` layered over its fiber's context: not a copy of the context. */
export const withEntries = <A, E, R>(
  effect: Effect.Effect<A, E, R>,
  entries: ReadonlyArray<readonly [Context.Tag<any, any>, unknown]>
): Effect.Effect<A, E, R> =>
  Effect.withFiberRuntime<A, E, R>((fiber) =>
    Effect.locally(effect, FiberRef.currentContext, LayeredMap.layeredContext(fiber.currentContext, entries))
  )

/**
 * `effect`'s exit, with `entries` layered over its fiber's context while it runs, and the
 * context put back when it ends however it ends: what `Effect.exit(withEntries(…))` gives,
 * without `Effect.locally`'s acquire-use-release around it (~20 of a write's interpreter steps,
 * issue 19). Run it uninterruptibly, as every transaction's body is: nothing may come between
 * `effect`'s end and the context's return. The context is the fiber's own `currentContext`
 * FiberRef, set and set back on the one fiber that runs `effect`.
 */
const exitWithEntries = <A, E, R>(
  effect: Effect.Effect<A, E, R>,
  entries: ReadonlyArray<readonly [Context.Tag<any, any>, unknown]>
): Effect.Effect<Exit.Exit<A, E>, never, R> =>
  Effect.withFiberRuntime<Exit.Exit<A, E>, never, R>((fiber) => {
    const running = fiber as unknown as SettableFiber
    const outer = fiber.currentContext
    running.setFiberRef(FiberRef.currentContext, LayeredMap.layeredContext(outer, entries))
    return Effect.map(Effect.exit(effect), (exit) => {
      running.setFiberRef(FiberRef.currentContext, outer)
      return exit
    })
  })

/** The running fiber as the runtime implements it (`FiberRuntime`): what `FiberRef.set` calls, in the step that asks. */
interface SettableFiber {
  readonly setFiberRef: <X>(fiberRef: FiberRef.FiberRef<X>, value: X) => void
}

export interface Options {
  /**
   * The connection inside its BEGIN, and the scope whose closing releases it. On failure it
   * holds nothing. Runs uninterruptibly, as `makeWithTransaction`'s acquisition does.
   */
  readonly acquire: Effect.Effect<readonly [Scope.CloseableScope, Connection], SqlError>
  /**
   * The outermost transaction's fast way in, when the store has one: `use` runs with the
   * connection inside its BEGIN, taken at once because nothing holds it, and released after
   * (no scope); None, having held nothing, when something does (or BEGIN must wait), and
   * `acquire` is used instead. Runs uninterruptibly, as `acquire`.
   */
  readonly ifFree?: (<X, R>(use: (connection: Connection) => Effect.Effect<X, never, R>) => Effect.Effect<Option.Option<X>, SqlError, R>) | undefined
  /** The store's outermost transaction with its span, for a runtime whose tracing is on. */
  readonly traced: WithTransaction
  /**
   * Whether a nested transaction's savepoint is RELEASEd when it succeeds. SQLite's cost per
   * write grows with the number of open savepoints (an import of n upserts in one transaction was
   * O(n²)); on Postgres an open savepoint costs nothing until COMMIT and a RELEASE is a round trip.
   */
  readonly releaseSavepoints: boolean
}

/**
 * A nested transaction: a savepoint on the outer transaction's connection, rolled back to when
 * `effect` fails, its depth layered over the caller's context.
 */
const savepoint = <A, E, R>(connection: Connection, depth: number, release: boolean, effect: Effect.Effect<A, E, R>) =>
  Effect.uninterruptibleMask((restore) => {
    const name = `costline_${depth}`
    return runOn(connection, `SAVEPOINT ${name}`).pipe(
      Effect.zipRight(exitWithEntries(restore(effect), [[TransactionConnection, [connection, depth]]])),
      Effect.flatMap((exit) =>
        Effect.orDie(
          Exit.isSuccess(exit)
            ? (release ? runOn(connection, `RELEASE SAVEPOINT ${name}`) : Effect.void)
            : release
            ? Effect.zipRight(runOn(connection, `ROLLBACK TO SAVEPOINT ${name}`), runOn(connection, `RELEASE SAVEPOINT ${name}`))
            : runOn(connection, `ROLLBACK TO SAVEPOINT ${name}`)
        ).pipe(Effect.zipRight(exit))
      )
    )
  })

/** `effect` on the connection inside its BEGIN, then COMMIT when it succeeded, else ROLLBACK: its exit. */
const onConnection = <A, E, R>(connection: Connection, effect: Effect.Effect<A, E, R>): Effect.Effect<Exit.Exit<A, E>, never, R> =>
  Effect.flatMap(
    exitWithEntries(effect, [[TransactionConnection, [connection, 0]]]),
    (exit) => Effect.as(Effect.orDie(runOn(connection, Exit.isSuccess(exit) ? "COMMIT" : "ROLLBACK")), exit)
  )

/**
 * The outermost transaction: COMMIT when `effect` succeeds, else ROLLBACK; the connection released
 * either way. Through the store's fast way in when it has one and the connection is free.
 */
const outermost = <A, E, R>(options: Options, effect: Effect.Effect<A, E, R>): Effect.Effect<A, E | SqlError, R> =>
  Effect.uninterruptibleMask((restore) => {
    const scoped = Effect.flatMap(options.acquire, ([scope, connection]) =>
      Effect.flatMap(
        exitWithEntries(restore(effect), [[TransactionConnection, [connection, 0]]]),
        (exit) =>
          Effect.orDie(runOn(connection, Exit.isSuccess(exit) ? "COMMIT" : "ROLLBACK")).pipe(
            Effect.ensuring(Scope.close(scope, exit)),
            Effect.zipRight(exit)
          )
      ))
    if (options.ifFree === undefined) return scoped
    return Effect.flatMap(
      options.ifFree((connection) => onConnection(connection, restore(effect))),
      Option.match({ onNone: () => scoped, onSome: (exit) => exit })
    )
  })

export const make = (options: Options): WithTransaction => <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.withFiberRuntime<A, E | SqlError, R>((fiber) => {
    const outer = Context.getOption(fiber.currentContext, TransactionConnection)
    if (Option.isSome(outer)) return savepoint(outer.value[0], outer.value[1] + 1, options.releaseSavepoints, effect)
    return fiber.getFiberRef(FiberRef.currentTracerEnabled) ? options.traced(effect) : outermost(options, effect)
  })
