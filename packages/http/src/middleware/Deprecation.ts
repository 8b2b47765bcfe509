/**
 * The headers of every v1 response: `Deprecation` (RFC 9745), `Sunset` (RFC 8594) and, where the
 * route has one, `Link: <v2 path>; rel="successor-version"` (RFC 5829).
 */
import { Option } from "effect"
import { SuccessorVersion } from "../api/Versions.js"
import * as RouteTable from "../routing/RouteTable.js"

export interface DeprecationPolicy {
  /** When v1 was deprecated. */
  readonly deprecatedAt: Date
  /** When v1 stops being served. */
  readonly sunsetAt: Date
}

export const DEFAULT_POLICY: DeprecationPolicy = {
  deprecatedAt: new Date("2026-01-01T00:00:00Z"),
  sunsetAt: new Date("2027-01-01T00:00:00Z")
}

/** `/v2/teams/:team_id` with the request's parameters filled in. */
export const successorPath = (template: string, params: Readonly<Record<string, string>>): string =>
  template.replace(/:([A-Za-z0-9_]+)/g, (placeholder, name: string) =>
    params[name] === undefined ? placeholder : encodeURIComponent(params[name]))

export const headers = (
  policy: DeprecationPolicy,
  match: Option.Option<RouteTable.Match>
): Record<string, string> => {
  const base = {
    deprecation: `@${Math.floor(policy.deprecatedAt.getTime() / 1000)}`,
    sunset: policy.sunsetAt.toUTCString()
  }
  const successor = Option.flatMap(match, ({ params, route }) =>
    Option.map(RouteTable.annotation(route, SuccessorVersion), (template) => successorPath(template, params)))
  return Option.match(successor, {
    onNone: () => base,
    onSome: (path) => ({ ...base, link: `<${path}>; rel="successor-version"` })
  })
}
