/**
 * Runs the embed-core example once and prints its report: `node examples/dist/embed-core/main.js`
 * on SQLite in memory, or with `COSTLINE_DATABASE_URL=postgres://…` on Postgres.
 */
import { DateTime, Effect } from "effect"
import { randomUUID } from "node:crypto"
import { storeFromEnvironment } from "../shared/store.js"
import { coreOn, costCentreReport, MONTH } from "./costCentres.js"

const report = await Effect.runPromise(
  costCentreReport(`acme-${randomUUID().slice(0, 8)}`).pipe(Effect.provide(coreOn(storeFromEnvironment(":memory:"))))
)

console.log(`Cost centres, ${MONTH}`)
console.table(report.groups)
console.log(`unattributed: ${report.unattributed.credits} credits in ${report.unattributed.records} records`)
console.log("audit log:")
for (const record of report.auditLog) {
  console.log(`  ${DateTime.formatIso(record.changed_at)} ${record.changed_by} ${record.operation} ${record.table_name} ${record.record_id}`)
}
