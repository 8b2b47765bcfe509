/**
 * The answer to a request whose app failed outside the API's pipeline (which answers every
 * failure of the API itself, so this is a last resort of the node serving): 500 in the caller's
 * version, as the pipeline renders an unexpected error, with the request id.
 */
import { type HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { versionOf } from "../api/Versions.js"
import * as RequestId from "../middleware/RequestId.js"
import { internal } from "./Classify.js"
import * as FastApiDetail from "./FastApiDetail.js"
import * as ProblemJson from "./ProblemJson.js"

/** `path` is the request's path as the API sees it (without a host's base path). */
export const internalError = (path: string, request: HttpServerRequest.HttpServerRequest): HttpServerResponse.HttpServerResponse => {
  const requestId = RequestId.fromHeader(request.headers[RequestId.HEADER])
  const response = versionOf(path) === "v1" ? FastApiDetail.render(internal) : ProblemJson.render(internal, requestId)
  return HttpServerResponse.setHeader(response, RequestId.HEADER, requestId)
}
