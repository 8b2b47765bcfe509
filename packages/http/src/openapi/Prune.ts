/**
 * Keeps only the components a document refers to. The generator puts every schema of the whole
 * API (both versions, and the framework's own error shapes that the pipeline never sends) in one
 * pool; each document keeps what its operations reach, directly or through other components.
 */
import type { Components, Document } from "./Types.js"

type Kind = "schemas" | "headers" | "parameters"

const REF = /^#\/components\/(schemas|headers|parameters)\/(.+)$/

/** Every `$ref` inside a JSON value. */
const refsIn = (value: unknown, found: Array<string> = []): Array<string> => {
  if (Array.isArray(value)) {
    for (const item of value) refsIn(item, found)
  } else if (value !== null && typeof value === "object") {
    for (const [key, member] of Object.entries(value)) {
      if (key === "$ref" && typeof member === "string") found.push(member)
      else refsIn(member, found)
    }
  }
  return found
}

export const prune = (document: Document): Document => {
  const pool: Record<Kind, Readonly<Record<string, unknown>>> = {
    schemas: document.components.schemas,
    headers: document.components.headers ?? {},
    parameters: document.components.parameters ?? {}
  }
  const kept: Record<Kind, Set<string>> = { schemas: new Set(), headers: new Set(), parameters: new Set() }
  const pending = refsIn(document.paths)
  for (let ref = pending.pop(); ref !== undefined; ref = pending.pop()) {
    const match = REF.exec(ref)
    if (match === null) continue
    const [, kind, name] = match as unknown as [string, Kind, string]
    if (kept[kind].has(name) || !(name in pool[kind])) continue
    kept[kind].add(name)
    pending.push(...refsIn(pool[kind][name]))
  }
  const pick = <A>(kind: Kind, from: Readonly<Record<string, A>>) =>
    Object.fromEntries(Object.entries(from).filter(([name]) => kept[kind].has(name))) as Record<string, A>
  const components: Components = {
    schemas: pick("schemas", document.components.schemas),
    securitySchemes: document.components.securitySchemes,
    headers: pick("headers", document.components.headers ?? {}),
    parameters: pick("parameters", document.components.parameters ?? {})
  }
  return { ...document, components }
}
