/**
 * `costline secrets reseal`: after a new master key is put first in COSTLINE_SECRET_KEYS (the old
 * one kept after it), re-wraps every stored credential under the new key, a batch per
 * transaction, then records the new key's check alone: from then on the old key may be removed.
 */
import { Command, Options } from "@effect/cli"
import { KeyCheck } from "@costline/core"
import { Console, Effect, Layer, Option } from "effect"
import { storeLayer } from "../Database.js"
import { database, resolveDatabase } from "../Options.js"
import { checkedSecrets } from "../SecretKeys.js"

const batchSize = Options.integer("batch-size").pipe(
  Options.withDescription("credentials re-sealed per transaction (default 100)"),
  Options.withDefault(100),
  Options.filterMap((size) => (size >= 1 && size <= 10_000 ? Option.some(size) : Option.none()), "--batch-size must be 1 to 10000")
)

const reseal = Command.make("reseal", { database, batchSize }, (args) =>
  Effect.gen(function*() {
    const db = yield* resolveDatabase(args.database)
    const secrets = yield* checkedSecrets(db)
    const done = yield* KeyCheck.reseal({
      batchSize: args.batchSize,
      onBatch: (progress) => Console.error(`resealed ${progress.resealed}, already current ${progress.current}`)
    }).pipe(Effect.provide(Layer.merge(secrets, storeLayer(db))))
    for (const item of done.unreadable) {
      yield* Console.error(
        `costline: warehouse account ${item.id} of ${item.organization_id}: its key (sealed under '${item.key_id}') ` +
          `cannot be opened (${item.reason}); left as it is, set it again`
      )
    }
    yield* Console.log(
      `resealed ${done.resealed} credential(s) under the current master key; ${done.current} already were` +
        (done.changedMeanwhile > 0 ? `; ${done.changedMeanwhile} were replaced meanwhile` : "") +
        (done.unreadable.length > 0 ? `; ${done.unreadable.length} could not be opened (listed above)` : "") +
        ". Older master keys may now be removed."
    )
  })).pipe(Command.withDescription("re-seal every stored credential under the current (first) master key"))

export const secrets = Command.make("secrets").pipe(
  Command.withDescription("the master keys that seal warehouse credentials"),
  Command.withSubcommands([reseal])
)
