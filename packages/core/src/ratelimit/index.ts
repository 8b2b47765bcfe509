/** Rate limiting: the GCRA rule, its storage contract and the per-credential limiter. */
export * as Gcra from "./Gcra.js"
export { DEFAULT_POLICY as DEFAULT_RATE_LIMIT_POLICY, RateLimitPolicy } from "./Gcra.js"
export { RateLimiter, keyOf as rateLimitKey, layer as rateLimiterLayer } from "./RateLimiter.js"
export { makeMemory as makeMemoryRateLimitRepo, memoryLayer as MemoryRateLimitRepoLive, RateLimitRepo } from "./Repo.js"
