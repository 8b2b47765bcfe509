/**
 * Probes for orchestrators. `/healthz`: the process serves requests (liveness; never touches the
 * store, so a store outage does not get healthy instances restarted). `/readyz`: the store is
 * reachable and carries every migration of this build (readiness: take traffic or not).
 */
import { StoreHealth } from "@costline/core"
import { Duration, Effect } from "effect"
import { STORE_RETRY_AFTER_SECONDS } from "../errors/Classify.js"
import { VERSION } from "../Version.js"
import * as JsonBody from "../api/JsonBody.js"

export const LIVENESS_PATH = "/healthz"
export const VERSION_PATH = "/version"
export const READINESS_PATH = "/readyz"

/** A probe must answer within its own deadline even when the network to the store hangs. */
const READINESS_DEADLINE = Duration.seconds(5)

const NO_STORE = { "cache-control": "no-store" }

export const liveness = JsonBody.unsafeJson({ status: "ok" }, { headers: NO_STORE })

const notReady = (body: Record<string, unknown>) =>
  JsonBody.unsafeJson(body, {
    status: 503,
    headers: { ...NO_STORE, "retry-after": String(STORE_RETRY_AFTER_SECONDS) }
  })

/** `/readyz` over the store's health: built once, so a probe needs nothing from its context. */
export const readiness = (health: StoreHealth.StoreHealth["Type"]) =>
  health.check.pipe(
    Effect.timeoutFail({ duration: READINESS_DEADLINE, onTimeout: () => "timeout" as const }),
    Effect.match({
      onFailure: () => notReady({ status: "unavailable" }),
      onSuccess: (status) =>
        StoreHealth.isReady(status)
          ? JsonBody.unsafeJson({ status: "ready" }, { headers: NO_STORE })
          : notReady({ status: "migrations_pending", pending_migrations: status.pendingMigrations })
    })
  )

/** `/version`: what is running: the package version, the store and its migrations. */
export const version = (health: StoreHealth.StoreHealth["Type"]) =>
  health.check.pipe(
    Effect.timeoutFail({ duration: READINESS_DEADLINE, onTimeout: () => "timeout" as const }),
    Effect.match({
      onFailure: () => JsonBody.unsafeJson({ version: VERSION, store: null, migrations: null }, { headers: NO_STORE }),
      onSuccess: (status) =>
        JsonBody.unsafeJson({
          version: VERSION,
          store: status.store,
          migrations: {
            applied: status.appliedMigrations.length,
            latest: status.appliedMigrations.at(-1)?.name ?? null,
            pending: status.pendingMigrations
          }
        }, { headers: NO_STORE })
    })
  )
