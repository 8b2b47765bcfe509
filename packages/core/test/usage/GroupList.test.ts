import { describe, expect, it } from "@effect/vitest"
import { DateTime, Either } from "effect"
import { OrganizationId } from "../../src/shared/Ids.js"
import { issue, resume } from "../../src/shared/Listing.js"
import * as PageToken from "../../src/shared/PageToken.js"
import { UsageGroup, UsageGroupId, UsageGroupSetId } from "../../src/usage/Domain.js"
import { and, leaf } from "../../src/usage/FilterExpression.js"
import { groupList } from "../../src/usage/UsageGroups.js"

const SECRET = "secret"
const tenant = OrganizationId.make("acme")
const setId = UsageGroupSetId.make("00000000-0000-4000-8000-00000000000a")
const last = new UsageGroup({
  id: UsageGroupId.make("00000000-0000-4000-8000-000000000001"),
  organization_id: tenant,
  usage_group_set_id: setId,
  usage_group_set_name: "Cost centers",
  name: "ETL",
  budget: null,
  order: 3,
  filter_expression: and(leaf(["warehouse_name"], "=", "ETL")),
  created_at: DateTime.unsafeMake("2024-05-01T10:00:00.123Z"),
  updated_at: DateTime.unsafeMake("2024-05-01T10:00:00.123Z"),
  etag: "\"x\""
})

const encode = (secret: string, tenant: OrganizationId, setId: UsageGroupSetId, group: UsageGroup) =>
  issue(secret, tenant, groupList(setId), group)
const decode = (secret: string, token: string, tenant: OrganizationId, setId: UsageGroupSetId) =>
  resume(secret, token, tenant, groupList(setId))

const messageOf = (result: Either.Either<unknown, { readonly message: string }>) =>
  Either.isLeft(result) ? result.left.message : "accepted"

describe("usage group page tokens", () => {
  it("resumes after the precedence key of the page's last group", () => {
    const position = decode(SECRET, encode(SECRET, tenant, setId, last), tenant, setId)
    expect(Either.getOrThrow(position)).toEqual({ order: 3, created_at: last.created_at, id: last.id })
  })

  it("is refused by another set, another tenant, and when tampered with", () => {
    const token = encode(SECRET, tenant, setId, last)
    const otherSet = UsageGroupSetId.make("00000000-0000-4000-8000-00000000000b")
    expect(messageOf(decode(SECRET, token, tenant, otherSet))).toBe("page_token was issued for another list")
    expect(messageOf(decode(SECRET, token, OrganizationId.make("other"), setId))).toBe("page_token was issued for another organization")
    expect(messageOf(decode("other secret", token, tenant, setId))).toBe("page_token is not a token this service issued")
  })

  it("a validly signed token of this list with a position it never issued is refused", () => {
    const forged = PageToken.encode(SECRET, { tenant, binding: `usage_groups:${setId}`, position: "[\"x\"]" })
    expect(messageOf(decode(SECRET, forged, tenant, setId))).toBe("page_token is not a token this service issued")
  })
})
