/**
 * The audit feed in commit order (see PgDialect and docs/storage.md): every audit row gets its
 * tenant's next `stamp` at COMMIT, from a deferred trigger that takes the tenant's counter row
 * lock as the transaction's last work, so readers follow `stamp > cursor` with no snapshot
 * horizon. Rows are unstamped (`stamp IS NULL`, invisible to readers) until their transaction
 * commits. Existing rows are numbered in the order the old reader delivered them, `(xid, seq)`,
 * so a page token issued before this migration still resumes where it was.
 */
import { SqlClient } from "@effect/sql/SqlClient"
import { Effect } from "effect"

const statements = [
  // Numbering an existing log rewrites every row once: allowed to take longer than a request.
  `SET LOCAL statement_timeout = 0`,
  `ALTER TABLE audit_records ADD COLUMN stamp bigint`,
  `UPDATE audit_records AS r SET stamp = numbered.stamp
    FROM (
      SELECT seq, row_number() OVER (PARTITION BY organization_id ORDER BY xid, seq) AS stamp FROM audit_records
    ) AS numbered
    WHERE r.seq = numbered.seq`,
  // One row per tenant: the last stamp handed out. Its row lock orders the tenant's commits.
  `CREATE TABLE audit_counters (
    organization_id text PRIMARY KEY,
    last_stamp bigint NOT NULL
  )`,
  `INSERT INTO audit_counters (organization_id, last_stamp)
    SELECT organization_id, max(stamp) FROM audit_records GROUP BY organization_id`,
  `CREATE UNIQUE INDEX audit_records_by_stamp ON audit_records (organization_id, stamp)`,
  // Only the rows of transactions still running: what the stamping looks up at COMMIT.
  `CREATE INDEX audit_records_unstamped ON audit_records (xid) WHERE stamp IS NULL`,
  // Stamps every unstamped row of the current transaction, tenant by tenant in a fixed order (so
  // two committing transactions never wait for each other's counters crosswise), in insertion
  // order within a tenant. The first row's trigger does it all; the others find nothing left.
  `CREATE FUNCTION audit_records_stamp() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE
      pending record;
      v_last bigint;
    BEGIN
      -- Stamped already by an earlier row's trigger: one primary-key lookup, not another scan.
      PERFORM 1 FROM audit_records WHERE seq = NEW.seq AND stamp IS NULL;
      IF NOT FOUND THEN
        RETURN NULL;
      END IF;
      FOR pending IN
        SELECT organization_id, count(*) AS n FROM audit_records
        WHERE stamp IS NULL AND xid = pg_current_xact_id()
        GROUP BY organization_id ORDER BY organization_id
      LOOP
        INSERT INTO audit_counters AS counter (organization_id, last_stamp)
        VALUES (pending.organization_id, pending.n)
        ON CONFLICT (organization_id) DO UPDATE SET last_stamp = counter.last_stamp + excluded.last_stamp
        RETURNING counter.last_stamp INTO v_last;
        UPDATE audit_records AS r SET stamp = numbered.stamp
        FROM (
          SELECT a.seq, v_last - pending.n + row_number() OVER (ORDER BY a.seq) AS stamp
          FROM audit_records AS a
          WHERE a.stamp IS NULL AND a.xid = pg_current_xact_id() AND a.organization_id = pending.organization_id
        ) AS numbered
        WHERE r.seq = numbered.seq;
      END LOOP;
      RETURN NULL;
    END
  $$`,
  // Deferred: it runs at COMMIT, after everything else the transaction does, whoever commits it
  // (the Transactor, a host's own transaction, or a single autocommitted INSERT).
  `CREATE CONSTRAINT TRIGGER audit_records_stamp AFTER INSERT ON audit_records
    DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION audit_records_stamp()`
]

export default Effect.flatMap(
  SqlClient,
  (sql) => Effect.forEach(statements, (statement) => sql.unsafe(statement), { discard: true })
)
