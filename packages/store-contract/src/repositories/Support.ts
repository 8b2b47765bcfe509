/** What the repository-level contracts share: fresh ids and the store's clock reading. */
import { DateTime, Effect } from "effect"
import { randomUUID } from "node:crypto"

/** A fresh UUID of any branded id type. */
export const uuid = <Id extends string>(): Id => randomUUID() as Id

/** Now, truncated to milliseconds (what every store keeps of a timestamp). */
export const now = Effect.map(DateTime.now, (time) => DateTime.unsafeMake(DateTime.toEpochMillis(time)))
