import { describe, expect, it } from "@effect/vitest"
import { tokenize } from "../src/SqlTokens.js"

const texts = (sql: string, dialect: "snowflake" | "bigquery" | "postgres" | "databricks" = "snowflake") =>
  tokenize(sql, dialect).map((token) => `${token.kind}:${token.text}`)

describe("tokenize", () => {
  it("skips white space and comments, keeping offsets into the text", () => {
    const sql = "SELECT a -- note\n/* block */ FROM t"
    const tokens = tokenize(sql, "snowflake")
    expect(tokens.map((token) => token.text)).toEqual(["SELECT", "a", "FROM", "t"])
    expect(tokens.map((token) => sql.slice(token.start, token.end))).toEqual(["SELECT", "a", "FROM", "t"])
  })

  it("keeps keywords and symbols inside strings and quoted names together", () => {
    expect(texts("SELECT 'it''s * UNION', \"my col\" FROM t")).toEqual([
      "word:SELECT", "string:'it''s * UNION'", "symbol:,", "quoted_identifier:\"my col\"", "word:FROM", "word:t"
    ])
    expect(texts("SELECT `a b` FROM t", "databricks")).toEqual(["word:SELECT", "quoted_identifier:`a b`", "word:FROM", "word:t"])
  })

  it("follows each dialect's quoting and comment rules", () => {
    expect(texts("SELECT \"x\" # tail", "bigquery")).toEqual(["word:SELECT", "string:\"x\""])
    expect(texts("SELECT a # b", "postgres")).toEqual(["word:SELECT", "word:a", "symbol:#", "word:b"])
    expect(texts("SELECT 'a\\'b' // tail")).toEqual(["word:SELECT", "string:'a\\'b'"])
    expect(texts("SELECT 'a\\' FROM t", "postgres")).toEqual(["word:SELECT", "string:'a\\'", "word:FROM", "word:t"])
    expect(texts("SELECT $$ a ' b $$, $q$x$q$", "postgres")).toEqual(["word:SELECT", "string:$$ a ' b $$", "symbol:,", "string:$q$x$q$"])
  })

  it("reads numbers and qualified stars", () => {
    expect(texts("SELECT t.*, 1.5e3, .5 FROM t")).toEqual([
      "word:SELECT", "word:t", "symbol:.", "symbol:*", "symbol:,", "number:1.5e3", "symbol:,", "number:.5", "word:FROM", "word:t"
    ])
  })

  it("ends an unterminated string or comment at the end of the text", () => {
    expect(texts("SELECT 'open")).toEqual(["word:SELECT", "string:'open"])
    expect(texts("SELECT a /* open")).toEqual(["word:SELECT", "word:a"])
  })
})
