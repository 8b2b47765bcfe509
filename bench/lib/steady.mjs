// @ts-check
/**
 * Whether a series of CPU-per-request samples has settled: the last `window` agree within
 * `tolerance` of their mean, and the last step did not fall by more than half of it (still
 * falling means the JIT is still at work). Plain JS, so the in-process harness shares it.
 * @param {ReadonlyArray<number>} samples
 */
export const isSteadyJs = (samples, window = 3, tolerance = 0.08) => {
  if (samples.length < window) return false
  const last = samples.slice(-window)
  const mean = last.reduce((sum, value) => sum + value, 0) / window
  if (!(mean > 0)) return false
  const spread = (Math.max(...last) - Math.min(...last)) / mean
  const falling = (/** @type {number} */ (last[window - 2]) - /** @type {number} */ (last[window - 1])) / mean
  return spread <= tolerance && falling <= tolerance / 2
}
