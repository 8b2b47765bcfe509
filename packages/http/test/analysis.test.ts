/**
 * Query analysis through the real server: analyze-query, and generate-code-change with the
 * built-in rewriter and with an OpenAI-compatible model (a fake endpoint on 127.0.0.1).
 */
import { FetchHttpClient } from "@effect/platform"
import {
  CodeChangesWithModel,
  DETERMINISTIC_REWRITER,
  OpenAiCompatible,
  type OpenAiCompatibleConfig,
  QueryAnalyzerLive,
  SqlWorkersLive
} from "@costline/analysis"
import { completion, type FakeModelServer, fakeModelServer, type Reply } from "@costline/analysis/testing"
import { layer } from "@effect/vitest"
import { Context, Duration, Effect, Fiber, Layer, Option, Redacted } from "effect"
import { expect } from "vitest"
import { call, makeTestServer, seedTenant } from "./support/TestServer.js"

const UNION = "SELECT a FROM t1\nUNION\nSELECT a FROM t2"
/** Branches that are unique and disjoint: the built-in rewriter may switch them to UNION ALL. */
const DISJOINT = "SELECT DISTINCT 'web' AS channel, user_id FROM web_visits\nUNION\nSELECT DISTINCT 'app', user_id FROM app_visits"
const MODEL_KEY = "sk-http-test-0123456789"

const analyze = (token: string, tenant: string, json: unknown) =>
  call("POST", "/v2/insights/actions/analyze-query", { token, tenant, json })

const generate = (token: string, tenant: string, json: unknown) =>
  call("POST", "/v2/insights/actions/generate-code-change", { token, tenant, json })

layer(makeTestServer(), { excludeTestServices: true })("query analysis with the built-in rewriter", (it) => {
  it.effect("analyze-query lists the findings with row_count; a clean query has none", () =>
    Effect.gen(function*() {
      const tenant = yield* seedTenant
      const reply = yield* analyze(tenant.adminKey, tenant.id, { query_text: "SELECT *\nFROM orders" })
      expect(reply.status).toBe(200)
      expect(reply.body.row_count).toBe(reply.body.items.length)
      expect(reply.body.items).toContainEqual(expect.objectContaining({
        insight_type: "select_star",
        location: { line: 1, column: 8 },
        code_change_available: expect.any(Boolean)
      }))
      const clean = yield* analyze(tenant.adminKey, tenant.id, { query_text: "SELECT id FROM orders WHERE id = 1" })
      expect(clean.body).toEqual({ items: [], row_count: 0 })
    }))

  it.effect("a slow analysis holds no other request: /healthz is answered, again and again, while it runs", () =>
    Effect.gen(function*() {
      const tenant = yield* seedTenant
      // ~97,000 characters of select list: about a second of parsing.
      const query_text = `SELECT ${Array.from({ length: 13_500 }, (_, i) => `c${i}`).join(", ")} FROM t1, t2`
      const slow = yield* Effect.fork(analyze(tenant.adminKey, tenant.id, { query_text }))
      let answered = 0
      while (slow.unsafePoll() === null && answered < 10) {
        expect((yield* call("GET", "/healthz")).status).toBe(200)
        answered++
      }
      // Parsed on the server's event loop, the analysis would have held every probe after the first.
      expect(answered).toBe(10)
      const reply = yield* Fiber.join(slow)
      expect(reply.status).toBe(200)
      expect(reply.body.items.map((item: { insight_type: string }) => item.insight_type)).toEqual(["cartesian_join"])
    }))

  it.effect("unparsable SQL and bad fields are 422s that say where", () =>
    Effect.gen(function*() {
      const tenant = yield* seedTenant
      const broken = yield* analyze(tenant.adminKey, tenant.id, { query_text: "SELECT a\nFROM t WHERE (" })
      expect(broken.status).toBe(422)
      expect(broken.body.details).toHaveLength(1)
      expect(broken.body.details[0].field).toBe("body.query_text")
      expect(broken.body.details[0].message).toMatch(/at line 2, column \d+/)
      const badDialect = yield* analyze(tenant.adminKey, tenant.id, { query_text: "SELECT 1", dialect: "oracle" })
      expect(badDialect.body.details[0].field).toBe("body.dialect")
      const noShow = yield* generate(tenant.adminKey, tenant.id, { query_text: "SELECT a FROM t", insight_type: "union_without_all" })
      expect(noShow.status).toBe(422)
      expect(noShow.body.details[0].field).toBe("body.insight_type")
      // Not provably the same rows: the built-in rewriter refuses rather than guess.
      const unsafe = yield* generate(tenant.adminKey, tenant.id, { query_text: UNION, insight_type: "union_without_all" })
      expect(unsafe.status).toBe(422)
    }))

  it.effect("generate-code-change returns a reviewed-by-a-person rewrite with a unified diff", () =>
    Effect.gen(function*() {
      const tenant = yield* seedTenant
      const reply = yield* generate(tenant.adminKey, tenant.id, { query_text: DISJOINT, insight_type: "union_without_all" })
      expect(reply.status).toBe(200)
      expect(reply.body).toMatchObject({
        original_query: DISJOINT,
        insight_type: "union_without_all",
        generated_by: DETERMINISTIC_REWRITER,
        review_required: true
      })
      expect(reply.body.suggested_query).toContain("UNION ALL")
      expect(reply.body.diff).toContain("-UNION\n")
      expect(reply.body.diff).toContain("+UNION ALL\n")
    }))

  it.effect("analyzing needs insights read; generating needs insights write", () =>
    Effect.gen(function*() {
      const tenant = yield* seedTenant
      const reader = yield* tenant.apiKey("read_only", ["insights:read"])
      const teamsOnly = yield* tenant.apiKey("read_write", ["teams:write"])
      const viewer = yield* tenant.userSession("viewer")
      const editor = yield* tenant.userSession("editor")
      const body = { query_text: DISJOINT, insight_type: "union_without_all" }
      expect((yield* analyze(reader, tenant.id, { query_text: UNION })).status).toBe(200)
      expect((yield* analyze(teamsOnly, tenant.id, { query_text: UNION })).status).toBe(403)
      expect((yield* generate(reader, tenant.id, body)).status).toBe(403)
      expect((yield* generate(viewer.token, tenant.id, body)).status).toBe(403)
      expect((yield* generate(editor.token, tenant.id, body)).status).toBe(200)
    }))

  it.effect("the actions are matched before any insight id: a GET there is a 405 that allows POST", () =>
    Effect.gen(function*() {
      const tenant = yield* seedTenant
      const reply = yield* call("GET", "/v2/insights/actions/analyze-query", { token: tenant.adminKey, tenant: tenant.id })
      expect(reply.status).toBe(405)
      expect(reply.headers.get("allow")).toBe("POST")
    }))
})

class FakeModel extends Context.Tag("FakeModel")<FakeModel, FakeModelServer>() {}

const modelAnalysis = (baseUrl: string, overrides: Partial<OpenAiCompatibleConfig>) =>
  QueryAnalyzerLive.pipe(
    Layer.provideMerge(CodeChangesWithModel),
    Layer.provide(OpenAiCompatible.layer({
      baseUrl,
      model: "fake-sql-model",
      apiKey: Option.some(Redacted.make(MODEL_KEY)),
      timeout: Duration.seconds(10),
      maxRetries: 0,
      retryBaseDelay: Duration.millis(1),
      ...overrides
    })),
    Layer.provide([FetchHttpClient.layer, SqlWorkersLive({ size: 1 })])
  )

/** The test server, its analysis configured (through its layer) to use a fake model that answers every request with `reply`. */
const withFakeModel = (reply: Reply, overrides: Partial<OpenAiCompatibleConfig> = {}) =>
  Layer.unwrapScoped(Effect.map(fakeModelServer(() => reply), (model) =>
    Layer.merge(makeTestServer({ analysis: modelAnalysis(model.baseUrl, overrides) }), Layer.succeed(FakeModel, model))))

const unionFix = { query_text: UNION, insight_type: "union_without_all" }

layer(withFakeModel(completion("Keeps duplicates.\n```sql\nSELECT a FROM t1\nUNION ALL\nSELECT a FROM t2\n```")), {
  excludeTestServices: true
})("generate-code-change with a model", (it) => {
  it.effect("asks the model with its key and returns its rewrite, credited to it", () =>
    Effect.gen(function*() {
      const tenant = yield* seedTenant
      const reply = yield* generate(tenant.adminKey, tenant.id, unionFix)
      expect(reply.status).toBe(200)
      expect(reply.body).toMatchObject({
        suggested_query: "SELECT a FROM t1\nUNION ALL\nSELECT a FROM t2",
        explanation: "Keeps duplicates.",
        generated_by: { provider: "openai-compatible", model: "fake-sql-model" },
        review_required: true
      })
      const [received] = (yield* FakeModel).received
      expect(received?.headers.authorization).toBe(`Bearer ${MODEL_KEY}`)
      expect(JSON.stringify(received?.body)).toContain("UNION")
      expect(reply.text).not.toContain(MODEL_KEY)
    }))
})

layer(withFakeModel({ status: 503, headers: { "retry-after": "7" }, body: "overloaded" }), {
  excludeTestServices: true
})("generate-code-change when the model is down", (it) => {
  it.effect("answers 503 unavailable with the provider's Retry-After, naming neither its URL nor its key", () =>
    Effect.gen(function*() {
      const tenant = yield* seedTenant
      const reply = yield* generate(tenant.adminKey, tenant.id, unionFix)
      expect(reply.status).toBe(503)
      expect(reply.body.code).toBe("unavailable")
      expect(reply.headers.get("retry-after")).toBe("7")
      expect(reply.text).not.toContain("127.0.0.1")
      expect(reply.text).not.toContain(MODEL_KEY)
    }))
})

layer(withFakeModel("never", { timeout: Duration.millis(200) }), { excludeTestServices: true })(
  "generate-code-change when the model does not answer",
  (it) => {
    it.effect("answers 503 unavailable once the provider's timeout passes, with a default Retry-After", () =>
      Effect.gen(function*() {
        const tenant = yield* seedTenant
        const reply = yield* generate(tenant.adminKey, tenant.id, unionFix)
        expect(reply.status).toBe(503)
        expect(reply.body.detail).toContain("did not answer")
        expect(reply.headers.get("retry-after")).toBe("5")
      }))
  }
)

layer(withFakeModel(completion("I would rather not rewrite this.")), { excludeTestServices: true })(
  "generate-code-change when the model talks nonsense",
  (it) => {
    it.effect("answers 502 bad_gateway saying the suggestion was unusable", () =>
      Effect.gen(function*() {
        const tenant = yield* seedTenant
        const reply = yield* generate(tenant.adminKey, tenant.id, unionFix)
        expect(reply.status).toBe(502)
        expect(reply.body).toMatchObject({ code: "bad_gateway", title: "Bad gateway" })
        expect(reply.body.detail).toContain("unusable suggestion")
      }))
  }
)
