/**
 * The domain errors as the API declares them: each with its HTTP status, so handler types admit
 * exactly these failures and the OpenAPI document lists them. The response bodies are rendered
 * by `errors/` (problem+json or FastAPI), not by these schemas.
 */
import { HttpApiSchema } from "@effect/platform"
import {
  AlreadyExists,
  AttributionTimedOut,
  BadRequest,
  Conflict,
  Forbidden,
  InvalidPageToken,
  InvalidTransition,
  ModelOutputInvalid,
  ModelUnavailable,
  NotFound,
  PreconditionFailed,
  PreconditionRequired,
  RateLimited,
  StoreUnavailable,
  Unauthorized,
  ValidationFailed
} from "@costline/core"
import type { Schema } from "effect"
import { DOMAIN_CODES } from "../errors/Classify.js"
import { PROBLEMS } from "../errors/Problem.js"

const declare = <A, I>(
  schema: Schema.Schema<A, I> & { readonly _tag: keyof typeof DOMAIN_CODES }
): Schema.Schema<A, I> => schema.annotations(HttpApiSchema.annotations({ status: PROBLEMS[DOMAIN_CODES[schema._tag]].status }))

export const Declared = {
  AlreadyExists: declare(AlreadyExists),
  AttributionTimedOut: declare(AttributionTimedOut),
  BadRequest: declare(BadRequest),
  Conflict: declare(Conflict),
  Forbidden: declare(Forbidden),
  InvalidPageToken: declare(InvalidPageToken),
  InvalidTransition: declare(InvalidTransition),
  ModelOutputInvalid: declare(ModelOutputInvalid),
  ModelUnavailable: declare(ModelUnavailable),
  NotFound: declare(NotFound),
  PreconditionFailed: declare(PreconditionFailed),
  PreconditionRequired: declare(PreconditionRequired),
  RateLimited: declare(RateLimited),
  StoreUnavailable: declare(StoreUnavailable),
  Unauthorized: declare(Unauthorized),
  ValidationFailed: declare(ValidationFailed)
}
