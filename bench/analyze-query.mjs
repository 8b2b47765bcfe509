// The cost of one analyze-query to the caller, in process (docs/performance.md, "Query analysis"):
// analysing on the caller's thread (`analyze`, what the service did before the worker threads)
// and through the service on its worker thread (`analysisLive`): wall time per call and the
// calling thread's CPU (process.threadCpuUsage, Node 23.9+). On the built packages:
//   npm run build && node bench/analyze-query.mjs [calls]
import { analyze, analysisLive, deterministicFixes } from "../packages/analysis/dist/index.js"
import { QueryAnalysis } from "../packages/core/dist/index.js"
import { Effect, Either } from "effect"

const TYPICAL = "SELECT o.*, c.name FROM orders o JOIN customers c ON c.id = o.customer_id WHERE o.created_at > '2024-01-01' ORDER BY o.created_at DESC"
const LONG = `SELECT ${Array.from({ length: 13_500 }, (_, i) => `c${i}`).join(", ")} FROM t1, t2`
const N = Number(process.argv[2] ?? 200)
const requests = { typical: new QueryAnalysis.AnalyzeQueryRequest({ query_text: TYPICAL }), long: new QueryAnalysis.AnalyzeQueryRequest({ query_text: LONG }) }

const stats = (label, samples, cpu) => {
  const sorted = [...samples].sort((a, b) => a - b)
  const q = (p) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))].toFixed(2)
  console.log(`${label}: n=${samples.length} median ${q(0.5)} ms, p90 ${q(0.9)} ms; calling thread CPU ${(cpu / samples.length / 1000).toFixed(2)} ms/call`)
}

const inProcess = (request, n) => {
  for (let i = 0; i < 20; i++) analyze(request, { canGenerate: (t) => deterministicFixes.has(t) })
  const samples = []
  const cpu0 = process.threadCpuUsage()
  for (let i = 0; i < n; i++) {
    const t = performance.now()
    Either.getOrThrow(analyze(request, { canGenerate: (t) => deterministicFixes.has(t) }))
    samples.push(performance.now() - t)
  }
  const cpu = process.threadCpuUsage(cpu0)
  return [samples, cpu.user + cpu.system]
}

const viaPool = (request, n) => Effect.gen(function*() {
  const analyzer = yield* QueryAnalysis.QueryAnalyzer
  for (let i = 0; i < 20; i++) yield* analyzer.analyze(request)
  const samples = []
  const cpu0 = process.threadCpuUsage()
  for (let i = 0; i < n; i++) {
    const t = performance.now()
    yield* analyzer.analyze(request)
    samples.push(performance.now() - t)
  }
  const cpu = process.threadCpuUsage(cpu0)
  return [samples, cpu.user + cpu.system]
})

const [a, ac] = inProcess(requests.typical, N); stats("typical, in process (before)", a, ac)
const [b, bc] = inProcess(requests.long, 5); stats("97k select list, in process (before)", b, bc)
await Effect.runPromise(Effect.gen(function*() {
  const rss0 = process.memoryUsage().rss
  const t0 = performance.now()
  const analyzer = yield* QueryAnalysis.QueryAnalyzer
  yield* analyzer.analyze(requests.typical)
  console.log(`first analysis, starting the worker: ${(performance.now() - t0).toFixed(1)} ms; RSS +${((process.memoryUsage().rss - rss0) / 1e6).toFixed(1)} MB`)
  const [c, cc] = yield* viaPool(requests.typical, N); stats("typical, worker pool (after)", c, cc)
  const [d, dc] = yield* viaPool(requests.long, 5); stats("97k select list, worker pool (after)", d, dc)
  console.log(`RSS after the long queries: +${((process.memoryUsage().rss - rss0) / 1e6).toFixed(1)} MB over before the worker`)
}).pipe(Effect.provide(analysisLive({ size: 1 }))))
