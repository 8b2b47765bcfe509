/**
 * The domain errors as the API declares them: each with its HTTP status, so handler types admit
 * exactly these failures and the OpenAPI document lists them. The response bodies are rendered
 * by `errors/` (problem+json or FastAPI), not by these schemas.
 */
import { HttpApiSchema } from "@effect/platform"
import { Attribution, Errors, QueryAnalysis } from "@costline/core"
import type { Schema } from "effect"
import { DOMAIN_CODES } from "../errors/Classify.js"
import { PROBLEMS } from "../errors/Problem.js"

const declare = <A, I>(
  schema: Schema.Schema<A, I> & { readonly _tag: keyof typeof DOMAIN_CODES }
): Schema.Schema<A, I> => schema.annotations(HttpApiSchema.annotations({ status: PROBLEMS[DOMAIN_CODES[schema._tag]].status }))

export const Declared = {
  AlreadyExists: declare(Errors.AlreadyExists),
  AnalysisBusy: declare(QueryAnalysis.AnalysisBusy),
  AttributionTimedOut: declare(Attribution.AttributionTimedOut),
  BadRequest: declare(Errors.BadRequest),
  Conflict: declare(Errors.Conflict),
  Forbidden: declare(Errors.Forbidden),
  InvalidPageToken: declare(Errors.InvalidPageToken),
  InvalidTransition: declare(Errors.InvalidTransition),
  ModelOutputInvalid: declare(QueryAnalysis.ModelOutputInvalid),
  ModelUnavailable: declare(QueryAnalysis.ModelUnavailable),
  NotFound: declare(Errors.NotFound),
  PreconditionFailed: declare(Errors.PreconditionFailed),
  PreconditionRequired: declare(Errors.PreconditionRequired),
  RateLimited: declare(Errors.RateLimited),
  StoreUnavailable: declare(Errors.StoreUnavailable),
  Unauthorized: declare(Errors.Unauthorized),
  ValidationFailed: declare(Errors.ValidationFailed)
}
