/**
 * An organization and an admin API key to call the mounted API with, made through core's
 * services as a host's own set-up code (or `costline seed`) would. Keeps an organization that
 * exists; mints a new key every time, since a key's token is shown only once.
 */
import { Actor, ApiKeys, Core, Organizations } from "@costline/core"
import type { Ids } from "@costline/core"
import { Effect, Layer, ManagedRuntime } from "effect"
import { randomUUID } from "node:crypto"

export interface DemoTenant {
  readonly organizationId: Ids.OrganizationId
  readonly apiKey: string
}

export const ensureTenant = (organizationId: string) =>
  Effect.gen(function*() {
    const organizations = yield* Organizations.Organizations
    const apiKeys = yield* ApiKeys.ApiKeys
    const organization = yield* organizations.create({ id: organizationId, name: organizationId }).pipe(
      Effect.catchTag("AlreadyExists", () => organizations.get(organizationId as Ids.OrganizationId))
    )
    const { token } = yield* apiKeys.create(Actor.Actor.system(), organization.id, {
      name: `example-${randomUUID().slice(0, 8)}`,
      access: "admin",
      scopes: ["*"]
    })
    return { organizationId: organization.id, apiKey: token } satisfies DemoTenant
  })

/** Runs `ensureTenant` on its own connection to the store, closed again before it returns. */
export const demoTenant = async (store: Layer.Layer<Core.Repositories, unknown>, organizationId = "demo"): Promise<DemoTenant> => {
  const runtime = ManagedRuntime.make(Core.layer.pipe(Layer.provide(store)))
  try {
    return await runtime.runPromise(ensureTenant(organizationId))
  } finally {
    await runtime.dispose()
  }
}
