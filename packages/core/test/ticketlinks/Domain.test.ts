import { describe, expect, it } from "@effect/vitest"
import { Either, Schema } from "effect"
import { MAX_TICKET_URL_LENGTH, TicketLinkCreate } from "../../src/ticketlinks/Domain.js"

const decode = Schema.decodeUnknownEither(TicketLinkCreate)

const valid = {
  item_type: "insight",
  item_id: "0d3f8a7e-2b1c-4c5d-9e8f-102132435465",
  provider: "jira",
  ticket_id: "COST-7",
  ticket_url: "https://acme.atlassian.net/browse/COST-7"
}

describe("TicketLinkCreate", () => {
  it("accepts every item type and provider, with or without a title", () => {
    for (const item_type of ["insight", "usage_group", "usage_group_set", "team", "dw_account"]) {
      expect(Either.isRight(decode({ ...valid, item_type }))).toBe(true)
    }
    for (const provider of ["jira", "linear", "github", "servicenow", "other"]) {
      expect(Either.isRight(decode({ ...valid, provider }))).toBe(true)
    }
    expect(Either.isRight(decode({ ...valid, title: "Resize WH_LOAD", ticket_url: "http://tracker.local:8080/t/1" }))).toBe(true)
    expect(Either.isRight(decode({ ...valid, title: null }))).toBe(true)
  })

  it("trims the ticket id, so the duplicate rule sees one ticket", () => {
    expect(Either.getOrThrow(decode({ ...valid, ticket_id: "  COST-7\t" })).ticket_id).toBe("COST-7")
  })

  it.each([
    ["a relative URL", { ticket_url: "/browse/COST-7" }],
    ["a javascript: URL", { ticket_url: "javascript:alert(1)" }],
    ["an ftp URL", { ticket_url: "ftp://files.example/COST-7" }],
    ["a mailto URL", { ticket_url: "mailto:ops@example.com" }],
    ["a URL over the length limit", { ticket_url: `https://t.example/${"x".repeat(MAX_TICKET_URL_LENGTH)}` }],
    ["a blank ticket id", { ticket_id: "   " }],
    ["a ticket id with a NUL character", { ticket_id: "COST-\u00007" }],
    ["an unknown item type", { item_type: "dashboard" }],
    ["an unknown provider", { provider: "trello" }],
    ["an empty item id", { item_id: "" }],
    ["a title over 500 characters", { title: "t".repeat(501) }]
  ])("refuses %s", (_, change) => {
    expect(Either.isLeft(decode({ ...valid, ...change }))).toBe(true)
  })
})
