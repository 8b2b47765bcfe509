/**
 * A V8 CPU profile (`node --cpu-prof`) read as self time by source file and by function. Frames of
 * a bundle are named through its source map: `costline serve` runs one bundled script, whose
 * frames are otherwise positions in a 2.6 MB file, so which module a served request's time goes
 * to is only readable this way (`bench/cpu-profile-report.ts`). Idle samples are left out; the
 * shares are of the busy time.
 */
import { SourceMapConsumer } from "source-map-js"

interface CallFrame {
  readonly functionName: string
  readonly url: string
  /** 0-based, as V8 writes them. */
  readonly lineNumber: number
  readonly columnNumber: number
}

export interface CpuProfile {
  readonly nodes: ReadonlyArray<{ readonly id: number; readonly callFrame: CallFrame }>
  readonly samples: ReadonlyArray<number>
  readonly timeDeltas: ReadonlyArray<number>
}

/** Where a frame's code came from: a source file and its 1-based line. */
export interface Origin {
  readonly source: string
  readonly line: number
}

/** A source map's answers for the frames of the script it maps (the file named `script`). */
export interface Mapping {
  readonly script: string
  readonly originOf: (line: number, column: number) => Origin | undefined
}

/** `mapJson` (a source map's text) as a `Mapping` for frames of the script whose file name is `script`. */
export const sourceMapping = (script: string, mapJson: string): Mapping => {
  const consumer = new SourceMapConsumer(JSON.parse(mapJson))
  return {
    script,
    originOf: (line, column) => {
      // V8's lines are 0-based, a source map's 1-based; a bundle's first line has no mapping.
      const position = consumer.originalPositionFor({ line: line + 1, column })
      return position.source === null ? undefined : { source: shortSource(position.source), line: position.line }
    }
  }
}

/** A source's path from its package on: `../../node_modules/effect/src/x.ts` → `effect/src/x.ts`. */
export const shortSource = (source: string): string =>
  source.includes("node_modules/") ? source.slice(source.lastIndexOf("node_modules/") + "node_modules/".length) : source.replace(/^(\.\.\/)+/, "")

export interface Share {
  readonly name: string
  /** Percent of the busy samples' time. */
  readonly percent: number
}

export interface Report {
  readonly busyMs: number
  readonly byFile: ReadonlyArray<Share>
  readonly byFunction: ReadonlyArray<Share>
}

const IDLE = "(idle)"

const sorted = (totals: Map<string, number>, busy: number): Array<Share> =>
  [...totals].sort((a, b) => b[1] - a[1]).map(([name, time]) => ({ name, percent: busy === 0 ? 0 : (time / busy) * 100 }))

/** Self time by file and by function (`name file:line`), largest first. */
export const report = (profile: CpuProfile, mapping?: Mapping): Report => {
  const frames = new Map(profile.nodes.map((node) => [node.id, node.callFrame]))
  const origins = new Map<CallFrame, { readonly file: string; readonly fn: string }>()
  const originOf = (frame: CallFrame) => {
    let origin = origins.get(frame)
    if (origin === undefined) {
      const mapped = mapping !== undefined && frame.url.endsWith(mapping.script) ? mapping.originOf(frame.lineNumber, frame.columnNumber) : undefined
      const file = mapped?.source ?? (frame.url === "" ? frame.functionName : frame.url)
      const line = mapped?.line ?? frame.lineNumber + 1
      origin = { file, fn: `${frame.functionName === "" ? "(anonymous)" : frame.functionName} ${file}:${line}` }
      origins.set(frame, origin)
    }
    return origin
  }
  const byFile = new Map<string, number>()
  const byFunction = new Map<string, number>()
  let busy = 0
  profile.samples.forEach((id, index) => {
    const frame = frames.get(id)
    const time = profile.timeDeltas[index] ?? 0
    if (frame === undefined || frame.functionName === IDLE) return
    busy += time
    const { file, fn } = originOf(frame)
    byFile.set(file, (byFile.get(file) ?? 0) + time)
    byFunction.set(fn, (byFunction.get(fn) ?? 0) + time)
  })
  return { busyMs: busy / 1000, byFile: sorted(byFile, busy), byFunction: sorted(byFunction, busy) }
}
