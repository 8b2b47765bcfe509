/** Postgres migrations, applied in id order and recorded in `costline_migrations`. */
import type { Migrations } from "@costline/store-sql"
import initial from "./0001_initial.js"
import insights from "./0100_insights.js"
import teamMembers from "./0200_team_members.js"
import ssoGroups from "./0201_sso_groups.js"
import invitations from "./0202_invitations.js"
import usage from "./0300_usage.js"
import ticketLinks from "./0400_ticket_links.js"
import dwAccounts from "./0500_dw_accounts.js"
import rateLimits from "./0600_rate_limits.js"
import secretKeyCheck from "./0700_secret_key_check.js"
import auditCommitOrder from "./0800_audit_commit_order.js"
import usageImports from "./0900_usage_imports.js"
import usageSourceKey from "./1000_usage_source_key.js"
import apiKeyLastUsed from "./1300_api_key_last_used.js"
import storedEtags from "./1400_stored_etags.js"
import insightImports from "./1500_insight_imports.js"
import stagedDwIngestions from "./1600_staged_dw_ingestions.js"
import invitationTokens from "./1700_invitation_tokens.js"
import credentialNotify from "./1800_credential_notify.js"
import keyedIngestionReplaces from "./1900_keyed_ingestion_replaces.js"

export const migrations: Migrations = {
  "0001_initial": initial,
  "0100_insights": insights,
  "0200_team_members": teamMembers,
  "0201_sso_groups": ssoGroups,
  "0202_invitations": invitations,
  "0300_usage": usage,
  "0400_ticket_links": ticketLinks,
  "0500_dw_accounts": dwAccounts,
  "0600_rate_limits": rateLimits,
  "0700_secret_key_check": secretKeyCheck,
  "0800_audit_commit_order": auditCommitOrder,
  "0900_usage_imports": usageImports,
  "1000_usage_source_key": usageSourceKey,
  "1300_api_key_last_used": apiKeyLastUsed,
  "1400_stored_etags": storedEtags,
  "1500_insight_imports": insightImports,
  "1600_staged_dw_ingestions": stagedDwIngestions,
  "1700_invitation_tokens": invitationTokens,
  "1800_credential_notify": credentialNotify,
  "1900_keyed_ingestion_replaces": keyedIngestionReplaces
}
