/**
 * Failures the HTTP layer itself detects, before or around the domain: they have no meaning in
 * core, so they live here. Rendered by the same code as the domain errors.
 */
import { Schema } from "effect"

/** A known path asked with a method it does not support. */
export class MethodNotAllowed extends Schema.TaggedError<MethodNotAllowed>()("MethodNotAllowed", {
  method: Schema.String,
  allowed: Schema.Array(Schema.String)
}) {
  override get message() {
    return `${this.method} is not allowed here; use ${this.allowed.join(", ")}`
  }
}

export class PayloadTooLarge extends Schema.TaggedError<PayloadTooLarge>()("PayloadTooLarge", {
  limitBytes: Schema.Number
}) {
  override get message() {
    return `the request body exceeds ${this.limitBytes} bytes`
  }
}

export class UnsupportedMediaType extends Schema.TaggedError<UnsupportedMediaType>()("UnsupportedMediaType", {
  contentType: Schema.String
}) {
  override get message() {
    return this.contentType === ""
      ? "a request body needs a content type; send application/json"
      : `content type '${this.contentType}' is not supported; send application/json`
  }
}

/** The body is not JSON at all (as opposed to JSON of the wrong shape, which is a 422). */
export class MalformedBody extends Schema.TaggedError<MalformedBody>()("MalformedBody", {}) {
  override get message() {
    return "the request body is not valid JSON"
  }
}

/** The body did not arrive within the read timeout. */
export class RequestTimeout extends Schema.TaggedError<RequestTimeout>()("RequestTimeout", {
  timeoutMs: Schema.Number
}) {
  override get message() {
    return `the request body did not arrive within ${this.timeoutMs / 1000} seconds`
  }
}

export type RequestRejection = MethodNotAllowed | PayloadTooLarge | UnsupportedMediaType | MalformedBody | RequestTimeout
