/** What the audit log keeps of an insight: its type and its whole editable state. */
import * as Audited from "../../audit/internal/Audited.js"
import { detectorContentOf, type Insight } from "../Domain.js"

/** The insight's type, triage (status, assignee) and what its detector says of it. */
export const auditedValues = (insight: Insight): Record<string, unknown> => ({
  insight_type: insight.insight_type,
  status: insight.status,
  assignee: insight.assignee,
  ...detectorContentOf(insight)
})

export const InsightAudit = Audited.resource<Insight>("insights", "insights", auditedValues)
