/**
 * What the language model is asked, and how its answer is read: one fenced SQL block with the
 * complete rewritten query, and a short explanation around it.
 */
import type { QueryAnalysis } from "@costline/core"
import { Either } from "effect"
import type { Prompt } from "./LanguageModel.js"
import type { Finding } from "./rules/index.js"

const DIALECT_NAMES: Record<QueryAnalysis.Dialect, string> = {
  snowflake: "Snowflake",
  databricks: "Databricks SQL",
  bigquery: "BigQuery GoogleSQL",
  postgres: "PostgreSQL"
}

/** What to change, for opportunities the query text alone does not show (they need statistics). */
const GUIDANCE: Record<QueryAnalysis.QueryInsightType, string> = {
  select_star: "Replace SELECT * with the columns the result needs.",
  cartesian_join: "Give every join a condition relating it to the other tables.",
  exploding_join: "The joins produce many more rows than they read: de-duplicate or aggregate a side before joining.",
  unbounded_sort: "The sorted result is large and unlimited: add a LIMIT or drop an ORDER BY that is not needed.",
  union_without_all: "Use UNION ALL where the branches cannot return the same row.",
  poor_partition_pruning: "The query reads most partitions: filter on the partitioning or clustering column.",
  query_local_spill: "The query spills to local disk: reduce rows and columns before joins, sorts and aggregations.",
  query_remote_spill: "The query spills to remote storage: reduce rows and columns before joins, sorts and aggregations.",
  queued_warehouse: "The warehouse was busy.",
  oversized_warehouse: "The warehouse is larger than the query needs.",
  repeated_query: "The same query runs repeatedly."
}

const SYSTEM = [
  "You are a data-warehouse performance engineer. You rewrite one SQL query to fix one named problem.",
  "Keep the query's result the same unless fixing the problem requires otherwise, and then say so.",
  "Use only tables and columns that appear in the query or in the schema you are given.",
  "Answer with the complete rewritten query in a single ```sql code block, followed by at most three sentences",
  "explaining the change."
].join("\n")

export interface PromptInput {
  readonly queryText: string
  readonly dialect: QueryAnalysis.Dialect
  readonly insightType: QueryAnalysis.QueryInsightType
  /** What the analyzer found in the query for this type, when the text shows it. */
  readonly finding: Finding | undefined
  readonly tables: QueryAnalysis.TableColumns | undefined
}

/** A code fence longer than any run of backticks in the text, so the text cannot close it early. */
const fenceFor = (text: string) => "`".repeat(Math.max(3, ...[...text.matchAll(/`+/g)].map(([run]) => run.length + 1)))

export const buildPrompt = (input: PromptInput): Prompt => {
  const { finding } = input
  const fence = fenceFor(input.queryText)
  const lines = [
    `Dialect: ${DIALECT_NAMES[input.dialect]}`,
    `Problem: ${input.insightType}: ${finding === undefined ? GUIDANCE[input.insightType] : finding.title}`,
    ...(finding === undefined
      ? []
      : [
        `Details: ${finding.description}`,
        `Recommendation: ${finding.recommendation}`,
        `Evidence: ${JSON.stringify(finding.evidence)}`,
        ...(finding.location ? [`Location: line ${finding.location.line}, column ${finding.location.column}`] : [])
      ]),
    ...(input.tables === undefined
      ? []
      : ["Schema:", ...Object.entries(input.tables).map(([table, columns]) => `- ${table}: ${columns.join(", ")}`)]),
    "Query:",
    `${fence}sql`,
    input.queryText,
    fence
  ]
  return { system: SYSTEM, user: lines.join("\n") }
}

export interface ModelAnswer {
  readonly sql: string
  readonly explanation: string
}

const FENCE = /```([A-Za-z]*)[^\n]*\n([\s\S]*?)```/g
/** Reasoning models may think out loud first; that is not part of the answer. */
const THINKING = /<think>[\s\S]*?<\/think>/g
const MAX_EXPLANATION_LENGTH = 2000

/**
 * The SQL of a model's answer (the first ```sql block, else the first block, else the whole answer)
 * and the prose around it. Left when there is nothing to read.
 */
export const readAnswer = (answer: string): Either.Either<ModelAnswer, string> => {
  const text = answer.replace(THINKING, "").trim()
  if (text === "") return Either.left("the model's answer is empty")
  const blocks = [...text.matchAll(FENCE)]
  const block = blocks.find((match) => match[1]!.toLowerCase() === "sql") ?? blocks[0]
  const sql = (block === undefined ? text : block[2]!).trim()
  if (sql === "") return Either.left("the model's answer has an empty SQL block")
  const prose = block === undefined ? "" : text.replace(block[0], " ").replace(/\s+/g, " ").trim()
  return Either.right({ sql, explanation: prose.slice(0, MAX_EXPLANATION_LENGTH) })
}
