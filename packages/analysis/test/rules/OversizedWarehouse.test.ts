import { describe, expect, it } from "@effect/vitest"
import { oversizedWarehouse } from "../../src/rules/OversizedWarehouse.js"
import { WarehouseSize } from "@costline/core"
import { runRule } from "../helpers.js"

const SQL = "SELECT a FROM t WHERE id = 1"
const MiB = 1024 ** 2

describe("oversized_warehouse", () => {
  it("flags a small scan on a large warehouse, with savings at the suggested size", () => {
    const [finding] = runRule(oversizedWarehouse, SQL, {
      statistics: { warehouse_size: "X-Large", bytes_scanned: 20 * MiB, execution_time_ms: 1_500, credits_used: 0.8 }
    })
    expect(finding?.severity).toBe("medium")
    expect(finding?.evidence).toMatchObject({ credits_per_hour: 16, suggested_size: "Small" })
    // 0.8 credits × (1 − 2/16)
    expect(finding?.potential_savings).toBeCloseTo(0.7)
  })

  it("is high from 2X-Large", () => {
    const [finding] = runRule(oversizedWarehouse, SQL, { statistics: { warehouse_size: "2X-Large", bytes_scanned: MiB } })
    expect(finding?.severity).toBe("high")
  })

  it("ignores small warehouses, big scans, long runs and unknown sizes", () => {
    expect(runRule(oversizedWarehouse, SQL, { statistics: { warehouse_size: "Medium", bytes_scanned: MiB } })).toEqual([])
    expect(runRule(oversizedWarehouse, SQL, { statistics: { warehouse_size: "Large", bytes_scanned: 50 * 1024 * MiB } }))
      .toEqual([])
    expect(runRule(oversizedWarehouse, SQL, {
      statistics: { warehouse_size: "Large", bytes_scanned: MiB, execution_time_ms: 10 * 60_000 }
    })).toEqual([])
    expect(runRule(oversizedWarehouse, SQL, { statistics: { warehouse_size: "Huge", bytes_scanned: MiB } })).toEqual([])
  })
})

describe("creditsPerHour", () => {
  it("reads the spellings of warehouse sizes", () => {
    expect(WarehouseSize.creditsPerHour("X-Small")).toBe(1)
    expect(WarehouseSize.creditsPerHour("XSMALL")).toBe(1)
    expect(WarehouseSize.creditsPerHour("medium")).toBe(4)
    expect(WarehouseSize.creditsPerHour("XXLARGE")).toBe(32)
    expect(WarehouseSize.creditsPerHour("2X-Large")).toBe(32)
    expect(WarehouseSize.creditsPerHour("x_large")).toBe(16)
    expect(WarehouseSize.creditsPerHour("6X-Large")).toBe(512)
    expect(WarehouseSize.creditsPerHour("2X-Small")).toBe(0.5)
    expect(WarehouseSize.creditsPerHour("enormous")).toBeUndefined()
  })
})
