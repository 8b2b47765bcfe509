import { SqlError } from "@effect/sql/SqlError"
import { describe, expect, it } from "@effect/vitest"
import { Either, Option } from "effect"
import { withStatementTimeout } from "../src/ConnectionUrl.js"
import { classify, parsePosition } from "../src/PgDialect.js"

const failure = (cause: object, message = "Failed to execute statement") => new SqlError({ cause, message })

describe("Postgres failure classification", () => {
  it.each([
    ["23505 unique_violation", { code: "23505" }, "unique_violation"],
    ["08006 connection_failure", { code: "08006" }, "unavailable"],
    ["53300 too_many_connections", { code: "53300" }, "unavailable"],
    ["57014 query_canceled (statement timeout)", { code: "57014" }, "unavailable"],
    ["57P01 admin_shutdown", { code: "57P01" }, "unavailable"],
    ["40001 serialization_failure", { code: "40001" }, "unavailable"],
    ["40P01 deadlock_detected", { code: "40P01" }, "unavailable"],
    ["55P03 lock_not_available", { code: "55P03" }, "unavailable"],
    ["ECONNREFUSED", { code: "ECONNREFUSED" }, "unavailable"],
    ["ECONNRESET", { code: "ECONNRESET" }, "unavailable"],
    ["a dropped connection without a code", new Error("Connection terminated unexpectedly"), "unavailable"],
    ["a pool connect timeout", new Error("timeout exceeded when trying to connect"), "unavailable"],
    ["23503 foreign_key_violation", { code: "23503" }, "bug"],
    ["42P01 undefined_table", { code: "42P01" }, "bug"],
    ["42601 syntax_error", { code: "42601" }, "bug"],
    ["22P02 invalid_text_representation", { code: "22P02" }, "bug"],
    ["55000 object_not_in_prerequisite_state", { code: "55000" }, "bug"],
    [
      "55000 from a database refusing connections",
      { code: "55000", message: "database \"costline\" is not currently accepting connections" },
      "unavailable"
    ]
  ] as const)("%s is %s", (_, cause, expected) => {
    expect(classify(failure(cause))).toBe(expected)
  })

  it("a failure to acquire a connection is unavailable whatever its cause", () => {
    expect(classify(failure(new Error("boom"), "Failed to acquire connection"))).toBe("unavailable")
    expect(classify(failure({ code: "55000" }, "Failed to acquire connection"))).toBe("unavailable")
  })
})

describe("Postgres audit positions", () => {
  it("reads back the positions it issues", () => {
    expect(parsePosition("9")).toEqual(Either.right({ _tag: "Stamp", stamp: "9" }))
    expect(parsePosition("9223372036854775807")).toEqual(Either.right({ _tag: "Stamp", stamp: "9223372036854775807" }))
  })

  it("reads the positions of tokens issued before stamps (`xid:seq`)", () => {
    expect(parsePosition("758:9")).toEqual(Either.right({ _tag: "Legacy", xid: "758", seq: "9" }))
    expect(parsePosition("18446744073709551615:9223372036854775807")).toEqual(
      Either.right({ _tag: "Legacy", xid: "18446744073709551615", seq: "9223372036854775807" })
    )
  })

  it.each([
    "",
    "0",
    "07",
    "9223372036854775808",
    "758:",
    ":9",
    "758:0",
    "-1:9",
    "758:-9",
    "07:9",
    "7:09",
    "1.5:9",
    "758:9:1",
    "18446744073709551616:1",
    "1:9223372036854775808",
    "a:b"
  ])(
    "refuses %j as InvalidPageToken",
    (position) => {
      const parsed = parsePosition(position)
      expect(Either.isLeft(parsed) && parsed.left._tag).toBe("InvalidPageToken")
    }
  )
})

describe("connection URL", () => {
  it("carries the statement timeout, replacing one already there and keeping other parameters", () => {
    const url = new URL(
      Option.getOrThrow(withStatementTimeout("postgres://u:p@db:5432/app?sslmode=require&statement_timeout=1", 2500.4))
    )
    expect(url.searchParams.get("statement_timeout")).toBe("2500")
    expect(url.searchParams.get("sslmode")).toBe("require")
    expect(`${url.username}:${url.password}@${url.host}${url.pathname}`).toBe("u:p@db:5432/app")
  })

  it("is None for something that is not a URL", () => {
    expect(withStatementTimeout("not a url", 1000)).toEqual(Option.none())
  })
})
