/** The pure part of an upsert: the insight to write for a detector's or an import's input. */
import { type DateTime, Option } from "effect"
import { detectorContentOf, Insight, type InsightId, type InsightUpsert } from "./Domain.js"
import * as ETag from "./ETag.js"

/**
 * Given the stored insight of the same (`insight_type`, `resource_id`), if any, returns the insight
 * to write, or None when the content is already there. A new insight is open and unassigned; an
 * existing one keeps its status, assignee and views, and gets a new ETag and `update_time` only
 * when its content changed. `id` is used only when creating. Pure, so a store may run it again
 * when it retries its transaction. Its result is built from validated parts (a decoded input, a
 * stored insight, a computed ETag), so the constructor does not validate it again: an import
 * merges thousands of insights a second.
 */
const trusted = { disableValidation: true } as const

/**
 * @since 0.1.0
 * @category utils
 */
export const mergeUpsert = (input: InsightUpsert, fresh: { readonly id: InsightId; readonly now: DateTime.Utc }) =>
(existing: Option.Option<Insight>): Option.Option<Insight> => {
  const content = detectorContentOf(input)
  if (Option.isNone(existing)) {
    const state = { ...content, status: "open" as const, assignee: null }
    return Option.some(
      new Insight({
        id: fresh.id,
        insight_type: input.insight_type,
        ...state,
        create_time: fresh.now,
        update_time: fresh.now,
        first_viewed_by: null,
        last_viewed_by: null,
        first_viewed_at: null,
        last_viewed_at: null,
        view_count: 0,
        etag: ETag.forInsight(state)
      }, trusted)
    )
  }
  const etag = ETag.forInsight({ ...existing.value, ...content })
  if (etag === existing.value.etag) return Option.none()
  return Option.some(new Insight({ ...existing.value, ...content, etag, update_time: fresh.now }, trusted))
}
