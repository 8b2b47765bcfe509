#!/usr/bin/env node
/** Exit codes: 0 ok, 1 failure (one-line reason on stderr), 2 usage error. */
import { ValidationError } from "@effect/cli"
import { NodeContext, NodeRuntime } from "@effect/platform-node"
import { Cause, Effect } from "effect"
import { run } from "./Cli.js"

const reason = (error: unknown): string => {
  if (error instanceof Error || (typeof error === "object" && error !== null && "message" in error)) {
    const message = String((error as { message: unknown }).message)
    const tag = (error as { _tag?: string })._tag
    return tag && !message.includes(tag) ? `${tag}: ${message}` : message
  }
  return String(error)
}

const program = run(process.argv).pipe(
  Effect.catchAllCause((cause) => {
    const failure = Cause.failureOption(cause)
    if (failure._tag === "Some" && ValidationError.isValidationError(failure.value)) {
      // @effect/cli has already printed the usage problem.
      return Effect.sync(() => (process.exitCode = 2))
    }
    if (Cause.isInterruptedOnly(cause)) return Effect.void
    const error = failure._tag === "Some" ? failure.value : Cause.squash(cause)
    return Effect.sync(() => {
      process.stderr.write(`costline: ${reason(error).split("\n")[0]}\n`)
      process.exitCode = 1
    })
  }),
  Effect.provide(NodeContext.layer)
)

NodeRuntime.runMain(program, { disableErrorReporting: true, disablePrettyLogger: true })
