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
  return Effect.flatMap(HttpClient.HttpClient, (base) =>
    HttpApiClient.makeWith(CostlineApi, {
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
}

export type Client = Effect.Effect.Success<ReturnType<typeof make>>
