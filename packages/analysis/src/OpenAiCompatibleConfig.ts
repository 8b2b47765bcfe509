/**
 * Settings of the OpenAI-compatible provider, read from `COSTLINE_LLM_*`. The API key is read as a
 * `Redacted` value so that printing the settings never shows it.
 */
import { Config, ConfigError, Duration, Either, Option, type Redacted } from "effect"

export interface OpenAiCompatibleConfig {
  /** Up to the version segment, e.g. `https://api.openai.com/v1` or `http://127.0.0.1:11434/v1`. */
  readonly baseUrl: string
  readonly model: string
  readonly apiKey: Option.Option<Redacted.Redacted>
  /** Per attempt, including reading the answer. */
  readonly timeout: Duration.Duration
  readonly maxRetries: number
  /** First backoff delay; each retry doubles it. */
  readonly retryBaseDelay: Duration.Duration
}

/** An empty variable (common in env files) counts as unset. */
const blankAsMissing = (name: string) =>
  Config.option(Config.string(name)).pipe(Config.map(Option.filter((value) => value.trim() !== "")))

const isHttpUrl = (value: string) => {
  try {
    return ["http:", "https:"].includes(new URL(value).protocol)
  } catch {
    return false
  }
}

const invalid = (message: string) => Either.left(ConfigError.InvalidData([], message))

/**
 * None when neither COSTLINE_LLM_BASE_URL nor COSTLINE_LLM_MODEL is set (the built-in rewriter is
 * used); an error when only one of them is, or when the URL is not http(s). Messages never repeat
 * the URL, which may carry credentials.
 */
export const config: Config.Config<Option.Option<OpenAiCompatibleConfig>> = Config.all({
  baseUrl: blankAsMissing("COSTLINE_LLM_BASE_URL"),
  model: blankAsMissing("COSTLINE_LLM_MODEL"),
  apiKey: Config.option(Config.redacted("COSTLINE_LLM_API_KEY")),
  timeout: Config.duration("COSTLINE_LLM_TIMEOUT").pipe(Config.withDefault(Duration.seconds(60))),
  maxRetries: Config.integer("COSTLINE_LLM_MAX_RETRIES").pipe(
    Config.validate({ message: "must be from 0 to 10", validation: (n) => n >= 0 && n <= 10 }),
    Config.withDefault(3)
  ),
  retryBaseDelay: Config.duration("COSTLINE_LLM_RETRY_BASE_DELAY").pipe(Config.withDefault(Duration.millis(500)))
}).pipe(
  Config.mapOrFail(({ baseUrl, model, ...rest }) => {
    if (Option.isNone(baseUrl) && Option.isNone(model)) return Either.right(Option.none())
    if (Option.isNone(baseUrl) || Option.isNone(model)) {
      return invalid("COSTLINE_LLM_BASE_URL and COSTLINE_LLM_MODEL must be set together")
    }
    if (!isHttpUrl(baseUrl.value)) return invalid("COSTLINE_LLM_BASE_URL must be an http(s) URL")
    return Either.right(Option.some({ ...rest, baseUrl: baseUrl.value.replace(/\/+$/, ""), model: model.value }))
  })
)
