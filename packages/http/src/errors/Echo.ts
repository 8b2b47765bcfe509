/**
 * What an error body may echo of a rejected value (v1 `input`, the `actual` that Effect's
 * messages quote, which v2 shows in `message` and `detail`). Every decoded issue passes through
 * `safeIssue` before it is rendered, so the rule lives here once:
 * - a value under a secret field (core's SecretFields: `private_key`, `*_passphrase`, `*token*`,
 *   `*secret*`, `*password*`, ...) is never shown, whatever its JSON type;
 * - an object echoed whole (the container of a missing field) has its secret members redacted;
 * - a value whose JSON text is longer than `MAX_ECHO_CHARACTERS` is not shown either.
 * Messages then say what was expected without the value (`Expected string`).
 */
import { SecretFields } from "@costline/core"
import type { RequestIssue } from "./Problem.js"

/** The longest echoed value, in characters of its JSON text. */
export const MAX_ECHO_CHARACTERS = 1_024

/** Effect's messages read `Expected <type>, actual <value>`; the value is what is left out. */
const ACTUAL = ", actual "

const withoutActual = (message: string): string => {
  const at = message.indexOf(ACTUAL)
  return at < 0 ? message : message.slice(0, at)
}

/** JSON text length, without building text for a value that is plainly too large. */
const echoLength = (value: unknown): number => {
  try {
    return JSON.stringify(value)?.length ?? 0
  } catch {
    return Number.POSITIVE_INFINITY
  }
}

const tooLarge = (length: number) =>
  `[not shown: ${Number.isFinite(length) ? `${length} characters` : "too large"}, over ${MAX_ECHO_CHARACTERS}]`

/** Shorter texts would mangle the message's own words; the value itself is already left out. */
const MIN_SCRUBBED_LENGTH = 4

/** Replaces each secret text that a message still quotes (a custom message may quote its input). */
const scrubbed = (message: string, secrets: ReadonlyArray<string>): string =>
  secrets.filter((secret) => secret.length >= MIN_SCRUBBED_LENGTH).reduce(
    (text, secret) => text.split(secret).join(SecretFields.REDACTED),
    SecretFields.scrubPrivateKeys(message)
  )

export const safeIssue = (issue: RequestIssue): RequestIssue => {
  if (!("input" in issue)) return { ...issue, message: SecretFields.scrubPrivateKeys(issue.message) }
  // A missing field's input is the object that lacks it, not the field's value.
  const secretValue = issue.issue !== "missing" && SecretFields.isSecretPath(issue.path)
  const secrets = secretValue ? SecretFields.secretStrings(issue.input, true) : SecretFields.secretStrings(issue.input)
  const redacted = secretValue ? SecretFields.REDACTED : SecretFields.redactSecretFields(issue.input)
  const length = echoLength(redacted)
  const hidden = secretValue || secrets.length > 0 || length > MAX_ECHO_CHARACTERS
  return {
    ...issue,
    input: length > MAX_ECHO_CHARACTERS ? tooLarge(length) : redacted,
    message: scrubbed(hidden ? withoutActual(issue.message) : issue.message, secrets)
  }
}
