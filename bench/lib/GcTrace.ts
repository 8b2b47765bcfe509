/**
 * What V8's `--trace-gc-nvp` lines say about a run: its young collections (scavenges) and their
 * pauses, the bytes each promoted to the old generation (what outlived a young collection), and
 * the full collections those promotions lead to. Per request, beside CPU per request: survivors
 * are what a young collection copies, so a request whose objects outlive it pays for them twice
 * (issue 19: an interruptible region per request promoted ~5 KB of every request's objects).
 */

export interface GcSummary {
  readonly scavenges: number
  readonly scavengePauseMs: number
  readonly promotedBytes: number
  readonly allocatedBytes: number
  readonly fullCollections: number
  readonly fullPauseMs: number
}

const field = (line: string, name: string): number => {
  const match = new RegExp(`(?:^|\\s)${name}=([\\d.]+)`).exec(line)
  return match === null ? 0 : Number(match[1])
}

/** The collections in `text` (the process's standard output, any other lines ignored). */
export const summarize = (text: string): GcSummary => {
  let scavenges = 0, scavengePauseMs = 0, promotedBytes = 0, allocatedBytes = 0, fullCollections = 0, fullPauseMs = 0
  for (const line of text.split("\n")) {
    const kind = /(?:^|\s)gc=(\w+)/.exec(line)?.[1]
    if (kind === "s") {
      scavenges++
      scavengePauseMs += field(line, "pause")
      promotedBytes += field(line, "promoted")
      allocatedBytes += field(line, "allocated")
    } else if (kind === "mc" || kind === "ms") {
      fullCollections++
      fullPauseMs += field(line, "pause")
    }
  }
  return { scavenges, scavengePauseMs, promotedBytes, allocatedBytes, fullCollections, fullPauseMs }
}

/** `after` less `before`: the collections of the part of a run between two readings. */
export const between = (before: GcSummary, after: GcSummary): GcSummary => ({
  scavenges: after.scavenges - before.scavenges,
  scavengePauseMs: after.scavengePauseMs - before.scavengePauseMs,
  promotedBytes: after.promotedBytes - before.promotedBytes,
  allocatedBytes: after.allocatedBytes - before.allocatedBytes,
  fullCollections: after.fullCollections - before.fullCollections,
  fullPauseMs: after.fullPauseMs - before.fullPauseMs
})
