/** The installation's own state in the store, shared by every instance over one store. */
import { Context, type Effect } from "effect"
import type { StoreUnavailable } from "./Errors.js"

/**
 * A per-installation secret, generated once and stored (signs every list's page tokens).
 * @since 0.1.0
 * @category tags
 */
export class InstallationRepo extends Context.Tag("@costline/core/InstallationRepo")<
  InstallationRepo,
  { readonly cursorSecret: Effect.Effect<string, StoreUnavailable> }
>() {}
