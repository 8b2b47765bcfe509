/** Runs the built `costline` binary in a scratch directory, as a user would. */
import { type ChildProcess, execFile, spawn } from "node:child_process"
import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"

export const BIN = fileURLToPath(new URL("../bin/costline.js", import.meta.url))

/** The commands default to `sqlite:.costline/costline.db` under their cwd unless told otherwise. */
const env = (() => {
  const { COSTLINE_DATABASE_URL: _ignored, ...rest } = process.env
  return rest
})()

export const scratchDir = () => mkdtempSync(join(tmpdir(), "costline-cli-"))

export interface RunResult {
  readonly code: number
  readonly stdout: string
  readonly stderr: string
}

export const costline = (cwd: string, ...args: Array<string>) =>
  new Promise<RunResult>((resolve) => {
    execFile(process.execPath, [BIN, ...args], { cwd, env }, (error, stdout, stderr) => {
      const code = error === null ? 0 : typeof error.code === "number" ? error.code : 1
      resolve({ code, stdout, stderr })
    })
  })

/** `costline` with more environment variables (none of the caller's COSTLINE_* settings). */
export const costlineWith = (cwd: string, extraEnv: Record<string, string>, ...args: Array<string>) =>
  new Promise<RunResult>((resolve) => {
    execFile(process.execPath, [BIN, ...args], { cwd, env: { ...env, ...extraEnv } }, (error, stdout, stderr) => {
      resolve({ code: error === null ? 0 : typeof error.code === "number" ? error.code : 1, stdout, stderr })
    })
  })

export const lastLine = (text: string) => text.trimEnd().split("\n").at(-1) ?? ""

/** Starts `costline serve`; resolves once it reports that it is listening. */
export const startServer = (cwd: string, ...args: Array<string>) => startServerWith({}, cwd, ...args)

/** `startServer` with more environment variables. */
export const startServerWith = (extraEnv: Record<string, string>, cwd: string, ...args: Array<string>) =>
  new Promise<{ child: ChildProcess; output: () => string }>((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, "serve", ...args], {
      cwd,
      env: { ...env, ...extraEnv }
    })
    let output = ""
    const onExit = (code: number | null) => reject(new Error(`serve exited early (${code}): ${output}`))
    const onData = (chunk: Buffer) => {
      output += chunk.toString()
      if (output.includes("costline listening on")) {
        child.off("exit", onExit)
        resolve({ child, output: () => output })
      }
    }
    child.stdout.on("data", onData)
    child.stderr.on("data", onData)
    child.once("exit", onExit)
  })

export const stop = (child: ChildProcess, signal: NodeJS.Signals = "SIGTERM") =>
  new Promise<number | null>((resolve) => {
    if (child.exitCode !== null) return resolve(child.exitCode)
    child.once("exit", (code) => resolve(code))
    child.kill(signal)
  })

/** One `insights import` line: an idle-warehouse insight for `resourceId`, with `change` merged in. */
export const insightLine = (resourceId: string, change: Record<string, unknown> = {}) =>
  JSON.stringify({
    insight_type: "warehouse_idle",
    resource_type: "warehouse",
    resource_id: resourceId,
    title: `${resourceId} is idle`,
    description: "Suspend it sooner.",
    severity: "medium",
    potential_savings: 50,
    ...change
  })
