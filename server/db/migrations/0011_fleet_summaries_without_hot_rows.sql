-- The summaries of 0009 without a row every writer updates. Immutable once applied.
--
-- In 0009 each statement that wrote terminals updated the one fleet_figures row (its counts, and
-- the activity_stale flag), and each statement that touched a line inserted its mark into
-- subscription_dirty, a table keyed by line. Both are locks a transaction holds until it commits:
-- a sync batch holding the row and then writing a terminal an administrator's assignment had just
-- locked, while the assignment waited for the row, was a deadlock, and PostgreSQL aborted one of
-- them (a failed sync run, or a 500). tests/server/fleet-summaries-concurrency.test.ts shows it.
--
-- Now a writer only appends rows nobody else writes:
-- 1. fleet_count_deltas: each statement on terminals appends what it added to and took away from
--    the counts. A read adds the deltas to the stored row (fleet_figures_now); a reader folds them
--    into the row once there are many, under an advisory lock so one process does it at a time.
-- 2. fleet_activity_marks: a statement on telemetry, cycles, lines or terminals' state marks its
--    transaction (one row per transaction: the key is the transaction's own id, so two
--    transactions never wait on each other's mark). The recount deletes the marks it has seen
--    before it counts, so a mark committed meanwhile stays for the next recount.
-- 3. subscription_dirty loses its key: a line may be marked several times, and the one process
--    that refreshes at a time (an advisory lock, in the repository) takes all of a line's marks.

CREATE TABLE fleet_count_deltas (
  id bigserial PRIMARY KEY,
  total integer NOT NULL,
  priority integer NOT NULL,
  active integer NOT NULL,
  warning integer NOT NULL,
  maintenance integer NOT NULL,
  inactive integer NOT NULL,
  assigned integer NOT NULL,
  synced integer NOT NULL,
  pending integer NOT NULL,
  error integer NOT NULL,
  on_active_line integer NOT NULL
);

-- The INSERT into fleet_count_deltas for a trigger operation, from its transition tables: the
-- counts of the live new rows less those of the live old rows, when they differ.
CREATE FUNCTION fleet_count_deltas_sql(op text) RETURNS text LANGUAGE plpgsql IMMUTABLE AS $$
DECLARE
  cols text[] := ARRAY['total', 'priority', 'active', 'warning', 'maintenance', 'inactive', 'assigned', 'synced', 'pending', 'error', 'on_active_line'];
  counts text := $q$
    SELECT count(*)::int AS total,
      (count(*) FILTER (WHERE is_priority))::int AS priority,
      (count(*) FILTER (WHERE condition = 'active'))::int AS active,
      (count(*) FILTER (WHERE condition = 'warning'))::int AS warning,
      (count(*) FILTER (WHERE condition = 'maintenance'))::int AS maintenance,
      (count(*) FILTER (WHERE condition = 'inactive'))::int AS inactive,
      (count(*) FILTER (WHERE assigned_customer_id IS NOT NULL))::int AS assigned,
      (count(*) FILTER (WHERE sync_status = 'synced'))::int AS synced,
      (count(*) FILTER (WHERE sync_status = 'pending'))::int AS pending,
      (count(*) FILTER (WHERE sync_status = 'error'))::int AS error,
      (count(*) FILTER (WHERE active))::int AS on_active_line
    FROM %I WHERE removed_at IS NULL$q$;
  list text := array_to_string(cols, ', ');
BEGIN
  IF op = 'INSERT' THEN
    RETURN format('INSERT INTO fleet_count_deltas (%s) SELECT * FROM (%s) n WHERE n.total > 0', list, format(counts, 'new_rows'));
  ELSIF op = 'DELETE' THEN
    RETURN format('INSERT INTO fleet_count_deltas (%s) SELECT %s FROM (%s) o WHERE o.total > 0', list,
      (SELECT string_agg(format('-o.%I', c), ', ') FROM unnest(cols) c), format(counts, 'old_rows'));
  END IF;
  RETURN format('INSERT INTO fleet_count_deltas (%s) SELECT %s FROM (%s) n, (%s) o WHERE n IS DISTINCT FROM o', list,
    (SELECT string_agg(format('n.%1$I - o.%1$I', c), ', ') FROM unnest(cols) c), format(counts, 'new_rows'), format(counts, 'old_rows'));
END
$$;

-- The triggers of 0009 stay; their function now appends instead of updating the row.
CREATE OR REPLACE FUNCTION fleet_figures_terminals_trigger() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE fleet_count_deltas_sql(TG_OP);
  RETURN NULL;
END
$$;

CREATE TABLE fleet_activity_marks (txid bigint PRIMARY KEY);
INSERT INTO fleet_activity_marks SELECT txid_current() FROM fleet_figures WHERE activity_stale;
ALTER TABLE fleet_figures DROP COLUMN activity_stale;

CREATE OR REPLACE FUNCTION fleet_figures_mark_stale_trigger() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO fleet_activity_marks VALUES (txid_current()) ON CONFLICT DO NOTHING;
  RETURN NULL;
END
$$;

-- The marks first, each statement with its own snapshot: whatever a deleted mark stood for has
-- committed, so the counts after it see it.
CREATE OR REPLACE FUNCTION fleet_figures_recount_activity(day date) RETURNS void LANGUAGE sql AS $$
  DELETE FROM fleet_activity_marks;
  SELECT fleet_figures_recount_telemetry();
  SELECT fleet_figures_recount_usage(day);
  UPDATE fleet_figures SET recounted_at = now() WHERE id = 1;
$$;

-- The deltas into the row, in one statement: exactly the ones it deletes are added.
CREATE FUNCTION fleet_figures_fold() RETURNS void LANGUAGE sql AS $$
  WITH moved AS (DELETE FROM fleet_count_deltas RETURNING *),
  d AS (
    SELECT coalesce(sum(total), 0)::int AS total, coalesce(sum(priority), 0)::int AS priority,
      coalesce(sum(active), 0)::int AS active, coalesce(sum(warning), 0)::int AS warning,
      coalesce(sum(maintenance), 0)::int AS maintenance, coalesce(sum(inactive), 0)::int AS inactive,
      coalesce(sum(assigned), 0)::int AS assigned, coalesce(sum(synced), 0)::int AS synced,
      coalesce(sum(pending), 0)::int AS pending, coalesce(sum(error), 0)::int AS error,
      coalesce(sum(on_active_line), 0)::int AS on_active_line
    FROM moved
  )
  UPDATE fleet_figures f SET
    total = f.total + d.total, priority = f.priority + d.priority, active = f.active + d.active,
    warning = f.warning + d.warning, maintenance = f.maintenance + d.maintenance, inactive = f.inactive + d.inactive,
    assigned = f.assigned + d.assigned, synced = f.synced + d.synced, pending = f.pending + d.pending,
    error = f.error + d.error, on_active_line = f.on_active_line + d.on_active_line
  FROM d WHERE f.id = 1;
$$;

-- From scratch (tests check the deltas against it). Writers wait meanwhile: a terminal written
-- between clearing the deltas and counting would otherwise be counted twice.
CREATE OR REPLACE FUNCTION fleet_figures_recount_terminals() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  LOCK TABLE terminals IN SHARE MODE;
  DELETE FROM fleet_count_deltas;
  UPDATE fleet_figures SET total = 0, priority = 0, active = 0, warning = 0, maintenance = 0, inactive = 0,
    assigned = 0, synced = 0, pending = 0, error = 0, on_active_line = 0
  WHERE id = 1;
  EXECUTE fleet_counts_delta_sql(1, 'terminals');
END
$$;

-- The figures as of now: the stored row plus the deltas not yet folded in.
CREATE VIEW fleet_figures_now AS
  SELECT f.id,
    f.total + d.total AS total, f.priority + d.priority AS priority, f.active + d.active AS active,
    f.warning + d.warning AS warning, f.maintenance + d.maintenance AS maintenance, f.inactive + d.inactive AS inactive,
    f.assigned + d.assigned AS assigned, f.synced + d.synced AS synced, f.pending + d.pending AS pending,
    f.error + d.error AS error, f.on_active_line + d.on_active_line AS on_active_line,
    f.telemetry_count, f.online_count, f.mean_signal_quality, f.usage_day, f.usage_lines, f.priority_gb, f.standard_gb,
    EXISTS (SELECT 1 FROM fleet_activity_marks) AS activity_stale, f.recounted_at
  FROM fleet_figures f CROSS JOIN (
    SELECT coalesce(sum(total), 0)::int AS total, coalesce(sum(priority), 0)::int AS priority,
      coalesce(sum(active), 0)::int AS active, coalesce(sum(warning), 0)::int AS warning,
      coalesce(sum(maintenance), 0)::int AS maintenance, coalesce(sum(inactive), 0)::int AS inactive,
      coalesce(sum(assigned), 0)::int AS assigned, coalesce(sum(synced), 0)::int AS synced,
      coalesce(sum(pending), 0)::int AS pending, coalesce(sum(error), 0)::int AS error,
      coalesce(sum(on_active_line), 0)::int AS on_active_line
    FROM fleet_count_deltas
  ) d
  WHERE f.id = 1;

-- The row as a read should see it. One process at a time keeps it (folds the deltas once there
-- are 64, recounts as 0009 did); another reading meanwhile gets the figures as they stand, its
-- counts exact all the same.
DROP FUNCTION fleet_figures_current(date);
CREATE FUNCTION fleet_figures_current(day date) RETURNS SETOF fleet_figures_now LANGUAGE plpgsql AS $$
BEGIN
  IF pg_try_advisory_xact_lock(720150011) THEN
    IF (SELECT count(*) FROM (SELECT 1 FROM fleet_count_deltas LIMIT 64) x) = 64 THEN
      PERFORM fleet_figures_fold();
    END IF;
    PERFORM 1 FROM fleet_figures f
    WHERE f.id = 1 AND (
      f.usage_day IS DISTINCT FROM day
      OR (EXISTS (SELECT 1 FROM fleet_activity_marks) AND (
        f.recounted_at IS NULL OR f.recounted_at < now() - interval '30 seconds'
        OR NOT EXISTS (SELECT 1 FROM sync_runs WHERE status = 'running'))));
    IF FOUND THEN
      PERFORM fleet_figures_recount_activity(day);
    END IF;
  END IF;
  RETURN QUERY SELECT * FROM fleet_figures_now;
END
$$;

ALTER TABLE subscription_dirty DROP CONSTRAINT subscription_dirty_pkey;
CREATE INDEX subscription_dirty_line_idx ON subscription_dirty (service_line_number);
