#!/usr/bin/env node
/** Exit codes: 0 ok, 1 failure (one-line reason on stderr), 2 usage error. */
import { ValidationError } from "@effect/cli"
import { NodeContext, NodeRuntime } from "@effect/platform-node"
import { Cause, ConfigError, Console, Effect, Either, ParseResult } from "effect"
import { describeDatabase, parseDatabaseUrl, resolveDatabaseUrl } from "./Database.js"
import { commandPathOf, isHelp, mendHelp } from "./HelpText.js"

const messageOf = (error: object): string => String((error as { message?: unknown }).message ?? "")

/** A configuration error names the setting: `COSTLINE_PORT: Expected an integer value …`. */
const configReason = (error: ConfigError.ConfigError): string => {
  switch (error._op) {
    case "And":
    case "Or":
      return configReason(error.left)
    case "InvalidData":
    case "MissingData":
    case "SourceUnavailable":
    case "Unsupported":
      return error.message.includes(error.path.join(".")) ? error.message : `${error.path.join(".")}: ${error.message}`
  }
}

/** A value that does not decode: its first issue in one plain line, never the schema's tree. */
const parseReason = (error: ParseResult.ParseError): string => {
  const [issue] = ParseResult.ArrayFormatter.formatErrorSync(error)
  if (issue === undefined) return "invalid value"
  return `invalid value${issue.path.length > 0 ? ` at ${issue.path.join(".")}` : ""}: ${issue.message}`
}

const reason = (error: unknown): string => {
  if (ConfigError.isConfigError(error)) return configReason(error)
  if (ParseResult.isParseError(error)) return parseReason(error)
  if (typeof error === "object" && error !== null && ("message" in error || "cause" in error)) {
    const cause = (error as { cause?: unknown }).cause
    // Wrappers such as the platform's ServeError carry the reason in their cause (EADDRINUSE…).
    const message = messageOf(error) || (typeof cause === "object" && cause !== null ? messageOf(cause) : "")
    const tag = (error as { _tag?: string })._tag
    return tag && !message.includes(tag) ? `${tag}: ${message}` : message
  }
  return String(error)
}

/** The database the command opened, for errors about what it did not find there. */
const openedDatabase = (): string | undefined => {
  const at = process.argv.findIndex((arg) => arg === "--database" || arg.startsWith("--database="))
  const flag = at < 0 ? undefined : process.argv[at]!.includes("=") ? process.argv[at]!.split("=").slice(1).join("=") : process.argv[at + 1]
  const parsed = parseDatabaseUrl(resolveDatabaseUrl(flag))
  return Either.isRight(parsed) ? describeDatabase(parsed.right) : undefined
}

/**
 * "organization nope not found" (or a missing table) is only useful with where it was looked for:
 * the usual cause is a command run against another database than the operator meant.
 */
const withDatabase = (error: unknown, message: string): string => {
  const { _tag: tag, resource } = typeof error === "object" && error !== null
    ? (error as { _tag?: unknown; resource?: unknown })
    : {}
  const missingOrganization = tag === "NotFound" && resource === "organization"
  const database = missingOrganization || /no such table|relation .* does not exist/.test(message) ? openedDatabase() : undefined
  return database === undefined ? message : `${message} (database ${database})`
}

/** Colour only for a terminal, and never with NO_COLOR set (https://no-color.org). */
const plainText = process.env.NO_COLOR !== undefined && process.env.NO_COLOR !== "" || !process.stdout.isTTY
// eslint-disable-next-line no-control-regex
const ANSI = /\u001b\[[0-9;]*m/g
const commandPath = commandPathOf(process.argv)
const present = (value: unknown) => {
  if (typeof value !== "string") return value
  const text = plainText ? value.replace(ANSI, "") : value
  return isHelp(text.replace(ANSI, "")) ? mendHelp(text, commandPath) : text
}
const presented = (console: Console.Console): Console.Console => ({
  ...console,
  log: (...args) => console.log(...args.map(present)),
  error: (...args) => console.error(...args.map(present)),
  unsafe: {
    ...console.unsafe,
    log: (...args) => console.unsafe.log(...args.map(present)),
    error: (...args) => console.unsafe.error(...args.map(present))
  }
})

/**
 * The command tree a run needs: `serve` alone when a server starts (its start then loads none of
 * the other commands, nor what only they use), else the whole tree. Help, version, wizard and
 * completions always get the whole tree, so they read the same whichever way they are asked.
 */
const BUILT_IN = new Set(["--help", "-h", "--version", "--wizard", "--completions"])
const servesOnly = (argv: ReadonlyArray<string>) =>
  argv[2] === "serve" && !argv.slice(3).some((arg) => BUILT_IN.has(arg.split("=", 1)[0]!))
const run = (argv: ReadonlyArray<string>) =>
  Effect.flatMap(
    Effect.promise(() => servesOnly(argv) ? import("./ServeCli.js") : import("./Cli.js")),
    (cli) => cli.run(argv)
  )

const program = Console.consoleWith((console) => run(process.argv).pipe(Effect.withConsole(presented(console)))).pipe(
  Effect.catchAllCause((cause) => {
    const failure = Cause.failureOption(cause)
    if (failure._tag === "Some" && ValidationError.isValidationError(failure.value)) {
      // @effect/cli has already printed the usage problem.
      return Effect.sync(() => (process.exitCode = 2))
    }
    if (Cause.isInterruptedOnly(cause)) return Effect.void
    const error = failure._tag === "Some" ? failure.value : Cause.squash(cause)
    return Effect.sync(() => {
      process.stderr.write(`costline: ${withDatabase(error, reason(error).split("\n")[0]!)}\n`)
      process.exitCode = 1
    })
  }),
  Effect.provide(NodeContext.layer)
)

NodeRuntime.runMain(program, { disableErrorReporting: true, disablePrettyLogger: true })
