/**
 * A chat model that answers one prompt with text. Providers live beside it
 * (`OpenAiCompatible.ts`); `CodeChanges` decides what to ask and checks what comes back.
 */
import type { QueryAnalysis } from "@costline/core"
import { Context, type Effect } from "effect"

export interface Prompt {
  readonly system: string
  readonly user: string
}

export class LanguageModel extends Context.Tag("@costline/analysis/LanguageModel")<
  LanguageModel,
  {
    /** Who answers, reported as `generated_by` of a code change. */
    readonly generatedBy: QueryAnalysis.GeneratedBy
    readonly complete: (prompt: Prompt) => Effect.Effect<string, QueryAnalysis.ModelUnavailable | QueryAnalysis.ModelOutputInvalid>
  }
>() {}
