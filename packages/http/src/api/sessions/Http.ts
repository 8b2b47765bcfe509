/** Logout: ends the caller's own session. */
import { Sessions } from "@costline/core"
import { Effect } from "effect"
import { CostlineApi } from "../Api.js"
import { Caller } from "../Caller.js"
import * as Group from "../Group.js"

export const SessionsHttpLive = Group.group(CostlineApi, "sessions", (handlers) =>
  Effect.map(Sessions.Sessions, (sessions) =>
    handlers.handle("logout", () =>
      Effect.gen(function*() {
        const { principal, requestId } = yield* Caller
        // The route's access rule admits only user sessions.
        if (principal._tag !== "User") return
        yield* sessions.end(principal.organizationId, principal.sessionId, principal.email, requestId)
      }))))
