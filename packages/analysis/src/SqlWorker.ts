/**
 * The entry point of an analysis worker thread (see `SqlWorkers.ts`): runs each job it is sent
 * and answers with its outcome, tagged with the job's id.
 */
import { parentPort } from "node:worker_threads"
import { type Job, runJob } from "./Jobs.js"

parentPort?.on("message", ({ id, job }: { readonly id: number; readonly job: Job }) => {
  parentPort!.postMessage({ id, outcome: runJob(job) })
})
