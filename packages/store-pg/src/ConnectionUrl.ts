/**
 * node-postgres reads `statement_timeout` from the connection URL and sends it in the startup
 * message, so every pooled connection gets it without a per-connection SET.
 */
import { Option } from "effect"

/** The URL with the timeout set; None when `url` is not a URL at all. */
export const withStatementTimeout = (url: string, millis: number): Option.Option<string> => {
  if (!URL.canParse(url)) return Option.none()
  const parsed = new URL(url)
  parsed.searchParams.set("statement_timeout", String(Math.round(millis)))
  return Option.some(parsed.toString())
}
