/**
 * `costline keys create|list|revoke`: API keys for operators. The token is printed once, alone on
 * the last line of stdout; listings never show it. Revocation is audited and takes effect on the
 * next request on every instance (keys are looked up per request, never cached).
 */
import { Command, Options } from "@effect/cli"
import { Actor, ApiKeys, Ids } from "@costline/core"
import type { Identity } from "@costline/core"
import { Console, DateTime, Effect, Either, Option, Schema } from "effect"
import { parseExpiry } from "../Expiry.js"
import { CliFailure, coreLayer, database, json, org } from "../Options.js"
import { table } from "../Table.js"

const name = Options.text("name").pipe(Options.withDescription("a name to recognise the key by"))
const access = Options.choice("access", ["admin", "read_write", "read_only"]).pipe(Options.withDefault("admin" as const))
const scopes = Options.text("scopes").pipe(
  Options.withDescription("comma-separated <area>:read|write, or *"),
  Options.withDefault("*")
)
const expires = Options.text("expires").pipe(
  Options.withDescription("a duration from now (90d, 12h, 30m, 2w) or a date (2027-01-31); default: never"),
  Options.optional
)

const iso = (value: DateTime.Utc | null) => (value === null ? null : DateTime.formatIso(value))

const statusOf = (key: Identity.ApiKey, now: DateTime.Utc) =>
  key.revoked_at !== null ? "revoked" : key.expires_at !== null && !DateTime.lessThan(now, key.expires_at) ? "expired" : "active"

/** What a listing shows of a key: everything but the token, which is never stored. */
export const keyView = (key: Identity.ApiKey, now: DateTime.Utc) => ({
  id: key.id,
  name: key.name,
  access: key.access,
  scopes: key.scopes.join(","),
  prefix: key.prefix,
  status: statusOf(key, now),
  created_at: DateTime.formatIso(key.created_at),
  last_used_at: iso(key.last_used_at),
  expires_at: iso(key.expires_at),
  revoked_at: iso(key.revoked_at)
})

const create = Command.make("create", { org, name, access, scopes, expires, json, database }, (args) =>
  Effect.gen(function*() {
    const now = yield* DateTime.now
    const expiresAt = Option.isSome(args.expires) ? parseExpiry(args.expires.value, now) : Either.right(undefined)
    if (Either.isLeft(expiresAt)) return yield* Effect.fail(new CliFailure(expiresAt.left))
    const { key, token } = yield* (yield* ApiKeys.ApiKeys).create(Actor.Actor.system(), args.org, {
      name: args.name,
      access: args.access,
      scopes: args.scopes.split(",").map((s) => s.trim()).filter((s) => s.length > 0),
      expiresAt: expiresAt.right
    })
    const view = keyView(key, now)
    if (args.json) {
      yield* Console.log(JSON.stringify({ ...view, scopes: key.scopes, token }))
      return
    }
    yield* Console.log(
      `created API key '${key.name}' (${key.access}, scopes ${view.scopes}) for ${key.organization_id}, id ${key.id}` +
        (view.expires_at === null ? "" : `, expires ${view.expires_at}`)
    )
    yield* Console.log(token)
  }).pipe(Effect.provide(coreLayer(args.database)))).pipe(
    Command.withDescription("create an API key; prints the token alone on the last line (--json: one object with id and token)")
  )

const list = Command.make("list", { org, json, database }, (args) =>
  Effect.gen(function*() {
    const now = yield* DateTime.now
    const views = (yield* (yield* ApiKeys.ApiKeys).list(args.org)).map((key) => keyView(key, now))
    if (args.json) return yield* Console.log(JSON.stringify(views))
    const rows = views.map((view) => ({
      ...view,
      last_used_at: view.last_used_at ?? "never",
      expires_at: view.expires_at ?? "never",
      revoked_at: view.revoked_at ?? ""
    }))
    yield* Console.log(table(rows, ["id", "name", "access", "scopes", "status", "created_at", "last_used_at", "expires_at"]))
  }).pipe(Effect.provide(coreLayer(args.database)))).pipe(
    Command.withDescription("list the organization's API keys (never their tokens)")
  )

const id = Options.text("id").pipe(Options.withDescription("the key's id (from keys list)"), Options.optional)
const byName = Options.text("name").pipe(Options.withDescription("the name of the one live key to revoke"), Options.optional)
const decodeKeyId = Schema.decodeUnknownOption(Ids.ApiKeyId)

const revoke = Command.make("revoke", { org, id, name: byName, database }, (args) =>
  Effect.gen(function*() {
    const keys = yield* ApiKeys.ApiKeys
    const organizationId = args.org
    if (Option.isSome(args.id) === Option.isSome(args.name)) {
      return yield* Effect.fail(new CliFailure("give exactly one of --id or --name"))
    }
    if (Option.isSome(args.id)) {
      const keyId = decodeKeyId(args.id.value)
      if (Option.isNone(keyId)) return yield* Effect.fail(new CliFailure(`no API key ${args.id.value} in ${args.org}`))
      yield* keys.revoke(Actor.Actor.system(), organizationId, keyId.value)
      yield* Console.log(`revoked API key ${keyId.value}`)
      return
    }
    const key = yield* keys.revokeByName(Actor.Actor.system(), organizationId, Option.getOrThrow(args.name))
    yield* Console.log(`revoked API key ${key.id} '${key.name}'`)
  }).pipe(Effect.provide(coreLayer(args.database)))).pipe(
    Command.withDescription("revoke a key (by --id or --name); it stops working on the next request")
  )

export const keys = Command.make("keys").pipe(
  Command.withDescription("create, list and revoke API keys"),
  Command.withSubcommands([create, list, revoke])
)
