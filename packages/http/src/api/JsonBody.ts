/**
 * JSON responses with the body encoded by `Buffer.from` instead of the platform's `TextEncoder`
 * (`HttpServerResponse.unsafeJson`). Both write the same UTF-8 bytes (JSON.stringify's output
 * is well-formed), but on Node 20 `TextEncoder.encode` costs ~5 µs per KiB against ~1: 1.1 ms
 * of a 200 KiB audit page. Every JSON answer costline builds goes through here: successes
 * (`Group.ts`, `Encoded.ts`), errors, health and the OpenAPI documents.
 */
import { Headers, HttpServerResponse } from "@effect/platform"

/** The content type the platform would give: the option, else the `content-type` header, else JSON. */
const contentTypeOf = (options: HttpServerResponse.Options.WithContentType | undefined): string =>
  (options?.contentType ? options.contentType : undefined) ??
    (options?.headers === undefined ? undefined : Headers.fromInput(options.headers)["content-type"]) ??
    "application/json"

/** The JSON text of `body` as bytes (`undefined` serialises to an empty body, as the platform's). */
export const bytes = (body: unknown): Uint8Array => Buffer.from(JSON.stringify(body) ?? "", "utf8")

/** `HttpServerResponse.unsafeJson`, same status, headers and bytes. Throws what `JSON.stringify` throws. */
export const unsafeJson = (
  body: unknown,
  options?: HttpServerResponse.Options.WithContentType
): HttpServerResponse.HttpServerResponse =>
  HttpServerResponse.uint8Array(bytes(body), { ...options, contentType: contentTypeOf(options) })
