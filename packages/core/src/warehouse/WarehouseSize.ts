/**
 * Warehouse sizes on one relative scale: credits per hour of a Snowflake warehouse, where each
 * size doubles the previous one. Databricks SQL warehouse sizes use the same names and roughly
 * the same doubling, so the scale compares sizes across both.
 */

const CREDITS_PER_HOUR: Record<string, number> = {
  "2xsmall": 0.5,
  xsmall: 1,
  small: 2,
  medium: 4,
  large: 8,
  xlarge: 16,
  "2xlarge": 32,
  "3xlarge": 64,
  "4xlarge": 128,
  "5xlarge": 256,
  "6xlarge": 512
}

/** `X-Small`, `XSMALL`, `x_small`, `XXLarge`, `2X-Large` → canonical key; repeated x's count. */
const canonical = (size: string): string => {
  const compact = size.toLowerCase().replace(/[\s_-]/g, "")
  const xs = /^(x+)(small|large)$/.exec(compact)
  if (xs !== null && xs[1]!.length > 1) return `${xs[1]!.length}x${xs[2]}`
  return compact
}

/**
 * Credits per hour of a named size, or undefined for a size this scale does not know.
 * @since 0.1.0
 * @category utils
 */
export const creditsPerHour = (size: string): number | undefined => CREDITS_PER_HOUR[canonical(size)]
