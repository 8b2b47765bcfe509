import { describe, expect, it } from "@effect/vitest"
import { DateTime, Option, Schema } from "effect"
import { OrganizationId } from "../../src/shared/Ids.js"
import { PatchUsageGroup, UsageGroup, UsageGroupId, UsageGroupSetId } from "../../src/usage/Domain.js"
import { applyPatch, groupEtag, setEtag, setNameKey } from "../../src/usage/Editable.js"
import { and, leaf } from "../../src/usage/FilterExpression.js"

const etl = and(leaf(["warehouse_name"], "=", "ETL"))
const values = { name: "ETL", budget: 10, order: 1, filter_expression: etl }
const created = DateTime.unsafeMake("2024-05-01T00:00:00Z")
const later = DateTime.unsafeMake("2024-05-02T00:00:00Z")

const group = new UsageGroup({
  id: UsageGroupId.make("00000000-0000-4000-8000-000000000001"),
  organization_id: OrganizationId.make("acme"),
  usage_group_set_id: UsageGroupSetId.make("00000000-0000-4000-8000-000000000002"),
  usage_group_set_name: "Cost centers",
  ...values,
  created_at: created,
  updated_at: created,
  etag: groupEtag(values)
})

const patch = (input: Record<string, unknown>) => Schema.decodeUnknownSync(PatchUsageGroup)(input)

describe("applyPatch", () => {
  it("changes only the fields given, moving the ETag and updated_at", () => {
    const next = applyPatch(group, patch({ name: "  ETL jobs " }), Option.none(), later)
    expect(next).toMatchObject({ name: "ETL jobs", budget: 10, order: 1, filter_expression: etl, created_at: created, updated_at: later })
    expect(next.etag).toBe(groupEtag({ ...values, name: "ETL jobs" }))
  })

  it("a null budget removes the limit; an absent one keeps it", () => {
    expect(applyPatch(group, patch({ budget: null }), Option.none(), later).budget).toBeNull()
    expect(applyPatch(group, patch({ order: 3 }), Option.none(), later).budget).toBe(10)
  })

  it("a new filter replaces the expression", () => {
    const bi = and(leaf(["warehouse_name"], "=", "BI"))
    expect(applyPatch(group, patch({}), Option.some(bi), later).filter_expression).toEqual(bi)
  })

  it("a patch that changes nothing returns the group itself", () => {
    expect(applyPatch(group, patch({ name: "ETL", budget: 10 }), Option.some(etl), later)).toBe(group)
  })
})

describe("ETags", () => {
  it("a group's ETag changes with each editable field and with nothing else", () => {
    const etags = [
      groupEtag(values),
      groupEtag({ ...values, name: "x" }),
      groupEtag({ ...values, budget: null }),
      groupEtag({ ...values, order: 2 }),
      groupEtag({ ...values, filter_expression: and(leaf(["warehouse_name"], "=", "x")) })
    ]
    expect(new Set(etags).size).toBe(etags.length)
    expect(groupEtag({ ...group })).toBe(etags[0])
  })

  it("a set's ETag covers its name, order and team", () => {
    const set = { name: "A", order: 0, team_id: null }
    expect(new Set([setEtag(set), setEtag({ ...set, name: "B" }), setEtag({ ...set, order: 1 })]).size).toBe(3)
  })
})

describe("setNameKey", () => {
  it("ignores case and surrounding blanks", () => {
    expect(setNameKey("  Cost Centers ")).toBe(setNameKey("cost centers"))
    expect(setNameKey("Cost Centers")).not.toBe(setNameKey("Cost  Centers"))
  })
})
