/**
 * `insights_list`: the first page of 50 open insights, newest first (the status filter and the
 * (organization, status, create_time, id) index). `insight_get`: one insight by id, with its
 * ETag header, cycling over a thousand ids so the reads are not one cached row.
 * `insights_query`: every insight grouped by status and severity, counted and summed.
 * `insight_patch`: a new assignee for one of a thousand insights, `If-Match: *` (any current
 * ETag: concurrent connections share the insights, and a client holding a stale ETag would
 * measure 412s), which costs a read, a compare-and-set UPDATE and an audit record.
 */
import type { Scenario } from "../lib/Scenario.js"

const PAGE = 50

export const insightsList: Scenario = {
  name: "insights_list",
  unit: "insights/s",
  unitsPerRequest: PAGE,
  peer: true,
  requests: ({ headers }) => () => ({ method: "GET", path: `/v2/insights?status__in=open&max_results=${PAGE}`, headers })
}

export const insightGet: Scenario = {
  name: "insight_get",
  unit: "req/s",
  unitsPerRequest: 1,
  peer: true,
  requests: ({ headers, seeded }) => {
    let next = 0
    return () => ({ method: "GET", path: `/v2/insights/${seeded.insightIds[next++ % seeded.insightIds.length]}`, headers })
  }
}

const QUERY = JSON.stringify({ dimensions: ["status", "severity"], measures: ["count", "potential_savings_sum"] })

export const insightsQuery: Scenario = {
  name: "insights_query",
  unit: "req/s",
  unitsPerRequest: 1,
  // An aggregate over 100,000 insights takes ~0.1–0.3 s of the database: 64 of them at once
  // queue for seconds behind Postgres's pool of 10, past costline's 5 s wait for a connection
  // (it answers 503 then, by design); queueing is not what this scenario measures.
  connections: [1, 16],
  requests: ({ headers }) => () => ({
    method: "POST",
    path: "/v2/insights/actions/query",
    headers: { ...headers, "content-type": "application/json" },
    body: QUERY
  })
}

/** Shared by both servers' generators, so neither replays the other's patches as no-ops. */
let patches = 0

export const insightPatch: Scenario = {
  name: "insight_patch",
  unit: "req/s",
  unitsPerRequest: 1,
  // Each answer carries its own update_time.
  sameAnswer: false,
  requests: ({ headers, seeded }) => () => {
    const n = patches++
    return {
      method: "PATCH",
      path: `/v2/insights/${seeded.insightIds[n % seeded.insightIds.length]}`,
      headers: { ...headers, "content-type": "application/json", "if-match": "*" },
      // Always a change (a no-op patch writes nothing): an insight's next visit is 1,000 patches
      // later, and 1,000 is no multiple of 97.
      body: JSON.stringify({ assignee: `user${n % 97}@bench.example` })
    }
  }
}
