/**
 * A server's answer to one request, and the check that the baseline gives the same one: if the
 * answers differ, the two servers did different work and their ratio means nothing.
 */
import type { Request } from "./Load.js"

export const send = async (origin: string, request: Request): Promise<unknown> => {
  const init: RequestInit = { method: request.method, headers: request.headers }
  if (request.body !== undefined) init.body = request.body
  const response = await fetch(origin + request.path, init)
  const text = await response.text()
  if (!response.ok) throw new Error(`${request.method} ${request.path} answered ${response.status}: ${text.slice(0, 500)}`)
  return text === "" ? undefined : JSON.parse(text)
}

export const assertSameAnswer = (
  scenario: string,
  answers: { readonly ours: unknown; readonly baseline: unknown },
  same: (ours: unknown, baseline: unknown) => boolean
) => {
  if (same(answers.ours, answers.baseline)) return
  throw new Error(
    `${scenario}: the baseline answers differently\nours:     ${JSON.stringify(answers.ours).slice(0, 600)}\nbaseline: ${
      JSON.stringify(answers.baseline).slice(0, 600)
    }`
  )
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value)

/**
 * Deep equality in which numbers may differ by a relative `tolerance`: sums of floating-point
 * values depend on the order they are added in, and a Postgres scan does not promise one order
 * (synchronized sequential scans start wherever another scan is).
 */
export const nearlyEqual = (a: unknown, b: unknown, tolerance = 1e-9): boolean => {
  if (typeof a === "number" && typeof b === "number") {
    return a === b || Math.abs(a - b) <= tolerance * Math.max(Math.abs(a), Math.abs(b))
  }
  if (Array.isArray(a) && Array.isArray(b)) {
    return a.length === b.length && a.every((item, i) => nearlyEqual(item, b[i], tolerance))
  }
  if (isRecord(a) && isRecord(b)) {
    const keys = Object.keys(a)
    return keys.length === Object.keys(b).length &&
      keys.every((key) => Object.hasOwn(b, key) && nearlyEqual(a[key], b[key], tolerance))
  }
  return Object.is(a, b)
}
