/**
 * Every change to `api_keys` that could end a key's authority notifies `costline_credentials` in
 * its own transaction (delivered when it commits), so each instance's credential watcher (see
 * CredentialWatch) drops the keys it has verified. Recording a key's use (`last_used_at`, once a
 * minute per key) is not such a change; a new key is not either (only keys read are kept), but a
 * row changed or removed any other way is: revocation, rotation, deletion, removal with its
 * organization, a hand-written UPDATE. Notifications of one transaction are delivered as one.
 */
import { SqlClient } from "@effect/sql/SqlClient"
import { Effect } from "effect"

const statements = [
  `CREATE FUNCTION costline_credentials_changed() RETURNS trigger LANGUAGE plpgsql AS $$
     BEGIN
       PERFORM pg_notify('costline_credentials', '');
       RETURN NULL;
     END
   $$`,
  `CREATE TRIGGER api_keys_changed AFTER UPDATE ON api_keys FOR EACH ROW
     WHEN ((to_jsonb(OLD) - 'last_used_at') IS DISTINCT FROM (to_jsonb(NEW) - 'last_used_at'))
     EXECUTE FUNCTION costline_credentials_changed()`,
  `CREATE TRIGGER api_keys_removed AFTER DELETE ON api_keys FOR EACH ROW
     EXECUTE FUNCTION costline_credentials_changed()`,
  `CREATE TRIGGER api_keys_truncated AFTER TRUNCATE ON api_keys FOR EACH STATEMENT
     EXECUTE FUNCTION costline_credentials_changed()`
]

export default Effect.flatMap(SqlClient, (sql) => Effect.forEach(statements, (statement) => sql.unsafe(statement), { discard: true }))
