/**
 * Formats a byte count for messages (`12.5 GiB`).
 * @since 0.1.0
 * @category utils
 */
export const formatBytes = (bytes: number): string => {
  const units = ["B", "KiB", "MiB", "GiB", "TiB", "PiB"]
  let value = bytes
  let unit = 0
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024
    unit += 1
  }
  return `${Number(value.toFixed(1))} ${units[unit]}`
}
