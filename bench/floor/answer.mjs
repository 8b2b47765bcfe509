// @ts-check
/**
 * The baseline's three steps as effects — which route, whose credential, the route's answer —
 * shared by the Effect floors (`server.mjs`, `runtime-steps.mjs`). `Effect` is passed in, so the
 * same steps run on Effect 3 or Effect 4 (the names used here are the same in both).
 *
 * @param {any} Effect the `Effect` module to build with
 * @param {ReturnType<typeof import("../baseline/app.mjs").makeApp>} app the baseline's request handling
 * @returns {(request: import("node:http").IncomingMessage) => any}
 */
export const makeAnswer = (Effect, app) => (request) =>
  Effect.flatMap(Effect.sync(() => app.resolve(request)), (/** @type {any} */ resolved) =>
    "reply" in resolved
      ? Effect.succeed(resolved.reply)
      : Effect.flatMap(Effect.promise(() => app.authorised(request)), (/** @type {any} */ caller) =>
        caller === undefined ? Effect.succeed(app.unauthorised) : Effect.promise(() => app.run(resolved, caller, request))))
