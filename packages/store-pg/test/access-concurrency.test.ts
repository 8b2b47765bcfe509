/** Identity rules under real concurrency: two instances, several connections each, one database. */
import { Core } from "@costline/core"
import {
  expectEveryUnconditionalTeamUpdate,
  expectOneAcceptanceOfAnInvitation,
  expectOneOfConcurrentDuplicates,
  expectOneTeamUpdatePerETag
} from "@costline/store-contract"
import { PgStore } from "@costline/store-pg"
import { it } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { useFreshDatabase } from "./support/database.js"

const url = useFreshDatabase()

const twoInstances = () => {
  const open = () => Layer.build(Core.layer.pipe(Layer.provideMerge(PgStore.layer({ url, maxConnections: 4 }))))
  return Effect.zip(open(), open())
}

it.live("of concurrent team updates made with one ETag exactly one applies", () =>
  Effect.flatMap(twoInstances(), ([first, second]) => expectOneTeamUpdatePerETag(first, second)).pipe(Effect.scoped))

it.live("concurrent team updates without If-Match all apply, one after the other", () =>
  Effect.flatMap(twoInstances(), ([first, second]) => expectEveryUnconditionalTeamUpdate(first, second)).pipe(Effect.scoped))

it.live("of concurrent duplicate grants and SSO group names exactly one is stored", () =>
  Effect.flatMap(twoInstances(), ([first, second]) => expectOneOfConcurrentDuplicates(first, second)).pipe(Effect.scoped))

it.live("of concurrent acceptances of one invitation exactly one succeeds", () =>
  Effect.flatMap(twoInstances(), ([first, second]) => expectOneAcceptanceOfAnInvitation(first, second)).pipe(Effect.scoped))
