import { describe, expect, it } from "vitest"
import { decisionValue, policyValue } from "../../src/middleware/RateLimit.js"
import { complete, summaryOf } from "../../src/openapi/Operations.js"
import { prune } from "../../src/openapi/Prune.js"
import type { Document, Operation } from "../../src/openapi/Types.js"

describe("rate-limit fields", () => {
  it("state the burst over the seconds it takes to earn back, and what is left", () => {
    expect(policyValue({ requestsPerSecond: 50, burst: 100 })).toBe("\"default\";q=100;w=2")
    expect(policyValue({ requestsPerSecond: 1000, burst: 1 })).toBe("\"default\";q=1;w=1")
    expect(decisionValue({ allowed: true, remaining: 7, resetAfterMs: 1001, retryAfterMs: 0 })).toBe("\"default\";r=7;t=2")
  })
})

describe("operations", () => {
  it("are summarised by their name when they have no summary", () => {
    expect(summaryOf("teams.createTeam")).toBe("Create team")
    expect(summaryOf("exportAuditLogs")).toBe("Export audit logs")
  })

  const operation: Operation = {
    operationId: "teams.getTeam",
    tags: ["teams"],
    security: [],
    parameters: [{ name: "If-Match", in: "header", required: true, schema: { type: "string" } }],
    responses: { "200": { description: "Success" }, "404": { description: "NotFound" } }
  }

  it("keep what the endpoint declares: its summary, its own If-Match, its statuses", () => {
    const completed = complete({ ...operation, summary: "Read a team" }, "patch", { version: "v2", rateLimited: false, tagged: true })
    expect(completed.summary).toBe("Read a team")
    expect(completed.parameters.filter((parameter) => "name" in parameter && parameter.name === "If-Match")).toHaveLength(1)
    expect(completed.parameters).not.toContainEqual({ $ref: "#/components/parameters/IfMatch" })
    expect(Object.keys(completed.responses)).toEqual(expect.arrayContaining(["200", "404", "408", "413", "415"]))
  })

  it("a read has no body statuses, and v1 has no rate-limit fields however the server is set", () => {
    const completed = complete(operation, "get", { version: "v1", rateLimited: true, tagged: false })
    expect(Object.keys(completed.responses)).not.toContain("415")
    expect(completed.deprecated).toBe(true)
    expect(completed.responses["200"]!.headers).not.toHaveProperty("RateLimit")
  })
})

describe("prune", () => {
  const document = (schemas: Document["components"]["schemas"]): Document => ({
    openapi: "3.1.0",
    info: { title: "t", version: "1" },
    security: [],
    tags: [],
    paths: {
      "/a": {
        get: {
          operationId: "a",
          tags: [],
          security: [],
          parameters: [],
          responses: { "200": { description: "ok", content: { "application/json": { schema: { $ref: "#/components/schemas/A" } } } } }
        }
      }
    },
    components: { schemas, securitySchemes: {} }
  })

  it("keeps what the paths reach, also through other components, and drops the rest", () => {
    const pruned = prune(document({
      A: { type: "array", items: { $ref: "#/components/schemas/B" } },
      B: { type: "string" },
      Unused: { type: "number" }
    }))
    expect(Object.keys(pruned.components.schemas).sort()).toEqual(["A", "B"])
  })
})
