-- Bulk actions: one action over the rows of an operator's CSV, run by the bulk-run job
-- a batch at a time. Each row keeps its input and, once run, its outcome, so the page shows
-- progress and per-row results, and a run cut short by a restart goes on from its first pending
-- row. Immutable once applied.
CREATE TABLE bulk_operations (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  kind text NOT NULL CHECK (kind IN ('assign', 'block', 'unblock', 'extend', 'change-plan')),
  status text NOT NULL DEFAULT 'running' CHECK (status IN ('running', 'done')),
  total integer NOT NULL CHECK (total >= 0),
  succeeded integer NOT NULL DEFAULT 0,
  failed integer NOT NULL DEFAULT 0,
  skipped integer NOT NULL DEFAULT 0,
  -- Who started it, and the request it came in on: each row's audit entry carries both.
  created_by uuid REFERENCES users (id) ON DELETE SET NULL,
  created_ip text,
  request_id text,
  created_at timestamptz NOT NULL DEFAULT now(),
  finished_at timestamptz
);
CREATE INDEX bulk_operations_created_at_idx ON bulk_operations (created_at DESC);

CREATE TABLE bulk_operation_rows (
  operation_id uuid NOT NULL REFERENCES bulk_operations (id) ON DELETE CASCADE,
  -- The row's line in the file: unique within an operation, and the order rows run in.
  line integer NOT NULL,
  input jsonb NOT NULL,
  -- 'running' while one process works the row (claimed with SKIP LOCKED, so never two); a row
  -- left 'running' by a process that died is reported failed, never run again: its action may
  -- have been applied.
  status text NOT NULL CHECK (status IN ('pending', 'running', 'ok', 'failed', 'skipped')),
  message text,
  claimed_at timestamptz,
  done_at timestamptz,
  PRIMARY KEY (operation_id, line)
);
-- The job's next batch, and the page's status filter.
CREATE INDEX bulk_operation_rows_status_idx ON bulk_operation_rows (operation_id, status, line);
