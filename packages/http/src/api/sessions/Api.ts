/**
 * `DELETE /v2/sessions/current`: a user session logs itself out (204), audited as a `session`
 * event with operation `logout`. API keys have no session to end: 403.
 */
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "@effect/platform"
import { Access, Requires } from "../Access.js"
import { v2 } from "../Versions.js"

/** How the docs page and the documents name and describe this group. */
const tag = OpenApi.annotations({
  title: "Sessions",
  description: "End the user session the request is made with."
})

export class SessionsApi extends v2(
  HttpApiGroup.make("sessions").annotateContext(tag).add(
    HttpApiEndpoint.del("logout", "/sessions/current")
      .annotate(Requires, Access.endOwnSession)
      .addSuccess(HttpApiSchema.NoContent)
  )
) {}
