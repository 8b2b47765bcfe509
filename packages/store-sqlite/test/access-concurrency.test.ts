/** Identity rules under real concurrency: two connections ("processes") writing one SQLite file. */
import { Core } from "@costline/core"
import {
  expectEveryUnconditionalTeamUpdate,
  expectOneAcceptanceOfAnInvitation,
  expectOneOfConcurrentDuplicates,
  expectOneTeamUpdatePerETag
} from "@costline/store-contract"
import { SqliteStore } from "@costline/store-sqlite"
import { it } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { useTempDirectory } from "./support/tempDatabase.js"

const databaseFile = useTempDirectory()

const twoInstances = (name: string) => {
  const filename = databaseFile(name)
  const open = () => Layer.build(Core.layer.pipe(Layer.provideMerge(SqliteStore.layer({ filename }))))
  return Effect.zip(open(), open())
}

it.live("of concurrent team updates made with one ETag exactly one applies", () =>
  Effect.flatMap(twoInstances("etag.db"), ([first, second]) => expectOneTeamUpdatePerETag(first, second)).pipe(Effect.scoped))

it.live("concurrent team updates without If-Match all apply, one after the other", () =>
  Effect.flatMap(twoInstances("unconditional.db"), ([first, second]) => expectEveryUnconditionalTeamUpdate(first, second))
    .pipe(Effect.scoped))

it.live("of concurrent duplicate grants and SSO group names exactly one is stored", () =>
  Effect.flatMap(twoInstances("duplicates.db"), ([first, second]) => expectOneOfConcurrentDuplicates(first, second))
    .pipe(Effect.scoped))

it.live("of concurrent acceptances of one invitation exactly one succeeds", () =>
  Effect.flatMap(twoInstances("invitation.db"), ([first, second]) => expectOneAcceptanceOfAnInvitation(first, second)).pipe(Effect.scoped))
