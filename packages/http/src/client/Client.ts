/**
 * The typed client of the API, derived from the same `HttpApi` definition as the server: every
 * group and endpoint, with the schemas' types. The credential and the tenant are configured once;
 * any error answer fails with `ApiProblem` (both versions render errors as documents the
 * definition's error schemas do not describe, so they are read here instead).
 */
import { HttpApiClient, HttpClient, HttpClientRequest } from "@effect/platform"
import { Effect, Redacted } from "effect"
import { CostlineApi } from "../api/Api.js"
import * as ApiProblem from "./ApiProblem.js"
import * as Defaults from "./Defaults.js"

/** Parameters the server defaults may be left out of calls (see Defaults). */
const ClientApi = Defaults.relaxApi(CostlineApi)

export interface ClientOptions {
  /** Where the API is served, e.g. `http://127.0.0.1:8080`. */
  readonly baseUrl: string
  /** An API key (`clk_…`) or a user session token (`cls_…`). */
  readonly token: string | Redacted.Redacted<string>
  /** The organization every v2 request is for (`x-tenant-id`). */
  readonly tenant: string
}

export const make = (options: ClientOptions) => {
  const token = typeof options.token === "string" ? Redacted.make(options.token) : options.token
  const client = Effect.flatMap(HttpClient.HttpClient, (base) =>
    HttpApiClient.makeWith(ClientApi, {
      baseUrl: options.baseUrl,
      httpClient: base.pipe(
        HttpClient.mapRequest((request) =>
          request.pipe(HttpClientRequest.bearerToken(token), HttpClientRequest.setHeader("x-tenant-id", options.tenant))
        ),
        HttpClient.transformResponse(Effect.flatMap((response) =>
          response.status >= 400 ? Effect.flatMap(ApiProblem.fromResponse(response), Effect.fail) : Effect.succeed(response)
        ))
      )
    }))
  return Effect.map(client, (groups): Client =>
    Object.fromEntries(Object.entries(groups).map(([group, methods]) => [
      group,
      Object.fromEntries(Object.entries(methods as Record<string, (request: unknown) => unknown>).map(([name, method]) => [
        name,
        (request?: unknown) => method(Defaults.fillEmpty(request))
      ]))
    ])) as unknown as Client)
}

/** Every group and endpoint of the API; any error answer fails with `ApiProblem`. */
export type Client = Defaults.Client<typeof CostlineApi, ApiProblem.ApiProblem>
