import { describe, expect, it } from "@effect/vitest"
import * as Audited from "../../src/audit/internal/Audited.js"

interface Thing {
  readonly id: string
  readonly name: string
  readonly secret: string
}

const things = Audited.make<Thing>({
  target: { resource: "saved_views" },
  table_name: "things",
  id: (thing) => thing.id,
  values: (thing) => ({ name: thing.name })
})

const before: Thing = { id: "t1", name: "old", secret: "s" }
const after: Thing = { ...before, name: "new" }

describe("Audited.make: one diff policy", () => {
  it("created: the projection as new_values", () => {
    expect(things.created(after)).toStrictEqual({
      target: { resource: "saved_views" },
      table_name: "things",
      record_id: "t1",
      operation: "create",
      old_values: null,
      new_values: { name: "new" }
    })
  })

  it("updated: the whole projection before and after", () => {
    expect(things.updated(before, after)).toMatchObject({
      operation: "update",
      record_id: "t1",
      old_values: { name: "old" },
      new_values: { name: "new" }
    })
  })

  it("deleted: the projection as old_values", () => {
    expect(things.deleted(before)).toMatchObject({ operation: "delete", old_values: { name: "old" }, new_values: null })
  })

  it("refused: what was asked, as a failure", () => {
    expect(things.refused("update", "t1", { name: "x" })).toStrictEqual({
      target: { resource: "saved_views" },
      table_name: "things",
      record_id: "t1",
      operation: "update",
      status: "failure",
      old_values: null,
      new_values: { name: "x" }
    })
  })

  it("an event names its own operations", () => {
    const sessions = Audited.make<{ readonly id: string }>({
      target: { event_type: "session" },
      table_name: "sessions",
      id: (session) => session.id,
      values: () => null,
      operations: { create: "login", delete: "logout" }
    })
    expect([sessions.created({ id: "s" }).operation, sessions.deleted({ id: "s" }).operation]).toEqual(["login", "logout"])
  })
})
