/**
 * `costline org settings show|set`: organization-level settings (trial end date, app warehouse
 * size, features, data share provisioning, ...). A change is audited as an `organization` event.
 */
import { Args, Command } from "@effect/cli"
import { Actor, Organizations } from "@costline/core"
import { Console, Effect, Either } from "effect"
import { CliFailure, coreLayer, database, org } from "../Options.js"

const KEY = /^[a-z][a-z0-9_]*$/

/**
 * `key=value`: the value is JSON when it parses as JSON (`true`, `3`, `{"beta":true}`), else the
 * text itself (`2030-01-31`), so plain words need no quoting.
 */
export const parseSetting = (assignment: string): Either.Either<readonly [string, unknown], string> => {
  const at = assignment.indexOf("=")
  const key = at < 0 ? assignment : assignment.slice(0, at)
  if (at < 0 || !KEY.test(key)) return Either.left(`'${assignment}' is not key=value with a lower-case key`)
  const text = assignment.slice(at + 1)
  try {
    return Either.right([key, JSON.parse(text)])
  } catch {
    return Either.right([key, text])
  }
}

const assignments = Args.text({ name: "key=value" }).pipe(Args.atLeast(1))

const set = Command.make("set", { org, assignments, database }, (args) =>
  Effect.gen(function*() {
    const patch: Record<string, unknown> = {}
    for (const assignment of args.assignments) {
      const parsed = parseSetting(assignment)
      if (Either.isLeft(parsed)) return yield* Effect.fail(new CliFailure(parsed.left))
      patch[parsed.right[0]] = parsed.right[1]
    }
    const organization = yield* (yield* Organizations.Organizations).updateSettings(Actor.Actor.system(), args.org, patch)
    yield* Console.log(JSON.stringify(organization.settings))
  }).pipe(Effect.provide(coreLayer(args.database)))).pipe(
    Command.withDescription("merge settings (key=value, value as JSON or text); prints the settings")
  )

const show = Command.make("show", { org, database }, (args) =>
  Effect.gen(function*() {
    const organization = yield* (yield* Organizations.Organizations).get(args.org)
    yield* Console.log(JSON.stringify(organization.settings))
  }).pipe(Effect.provide(coreLayer(args.database)))).pipe(Command.withDescription("print the settings as JSON"))

export const orgCommand = Command.make("org").pipe(
  Command.withDescription("one organization's settings"),
  Command.withSubcommands([
    Command.make("settings").pipe(Command.withDescription("show or change settings"), Command.withSubcommands([show, set]))
  ])
)
