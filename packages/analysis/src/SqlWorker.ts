/**
 * The entry point of an analysis worker thread (see `SqlWorkers.ts`): loads the parser, says it is
 * ready (so that loading is not counted against the first job's time limit), then runs each job it
 * is sent and answers with its outcome, tagged with the job's id.
 */
import { parentPort } from "node:worker_threads"
import { type Job, runJob } from "./Jobs.js"
import { loadParser } from "./SqlParse.js"

loadParser()
parentPort?.on("message", ({ id, job }: { readonly id: number; readonly job: Job }) => {
  parentPort!.postMessage({ id, outcome: runJob(job) })
})
parentPort?.postMessage({ ready: true })
