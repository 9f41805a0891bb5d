-- Summaries kept up to date as the fleet changes, so the admin pages read a row instead of
-- counting 100,000 terminals on every request. Immutable once applied.
--
-- Measured before (PostgreSQL, 100,000 terminals, a usage sync running): GET /terminals/health
-- p95 714 ms and GET /subscriptions page 1 p95 1,421 ms, both recomputing the whole fleet per read.
--
-- 1. fleet_figures: one row. The terminal counts are exact at every commit: statement-level
--    triggers add what a statement inserted and take away what it deleted or replaced (one
--    UPDATE of the row per statement, from the statement's transition tables, so a sync batch of
--    2,000 rows costs one row update, not 2,000). The telemetry and usage figures are recounted
--    on read when a write marked them stale or the day changed, but while a sync run is writing
--    at most every 30 seconds, so its batches do not make every read recount.
-- 2. subscription_rows: one row per live terminal on a service line with its figures for the
--    cycle containing the day they were computed for (the domain's arithmetic, done in the
--    server), indexed for the page's filters and order. Triggers on everything a row is made
--    from mark its service line in subscription_dirty; the repository recomputes the marked
--    lines (and every line once a day).

CREATE TABLE fleet_figures (
  id smallint PRIMARY KEY DEFAULT 1 CHECK (id = 1),
  total integer NOT NULL DEFAULT 0,
  priority integer NOT NULL DEFAULT 0,
  active integer NOT NULL DEFAULT 0,
  warning integer NOT NULL DEFAULT 0,
  maintenance integer NOT NULL DEFAULT 0,
  inactive integer NOT NULL DEFAULT 0,
  assigned integer NOT NULL DEFAULT 0,
  synced integer NOT NULL DEFAULT 0,
  pending integer NOT NULL DEFAULT 0,
  error integer NOT NULL DEFAULT 0,
  -- Live terminals whose line is active (the dashboard's "Active Terminals").
  on_active_line integer NOT NULL DEFAULT 0,
  -- Telemetry of live terminals on an active line, as of the last finished sync run.
  telemetry_count integer NOT NULL DEFAULT 0,
  online_count integer NOT NULL DEFAULT 0,
  mean_signal_quality double precision,
  -- The cycles containing usage_day of every line not removed.
  usage_day date,
  usage_lines integer NOT NULL DEFAULT 0,
  priority_gb numeric NOT NULL DEFAULT 0,
  standard_gb numeric NOT NULL DEFAULT 0,
  -- Telemetry, usage cycles, lines or terminals' active/removed state changed since recounted_at.
  activity_stale boolean NOT NULL DEFAULT true,
  recounted_at timestamptz
);

-- The UPDATE that adds (sign 1) or takes away (sign -1) the counts of the live rows of a relation.
CREATE FUNCTION fleet_counts_delta_sql(sign integer, rel text) RETURNS text LANGUAGE sql IMMUTABLE AS $$
  SELECT format($q$
    UPDATE fleet_figures f SET
      total = f.total + %1$s * d.total, priority = f.priority + %1$s * d.priority,
      active = f.active + %1$s * d.active, warning = f.warning + %1$s * d.warning,
      maintenance = f.maintenance + %1$s * d.maintenance, inactive = f.inactive + %1$s * d.inactive,
      assigned = f.assigned + %1$s * d.assigned, synced = f.synced + %1$s * d.synced,
      pending = f.pending + %1$s * d.pending, error = f.error + %1$s * d.error,
      on_active_line = f.on_active_line + %1$s * d.on_active_line
    FROM (
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
      FROM %2$I WHERE removed_at IS NULL
    ) d
    WHERE f.id = 1 AND d.total > 0$q$, sign, rel)
$$;

-- Transition tables are visible to the trigger function's own statements, dynamic ones included,
-- but not to functions it calls: so the trigger runs the UPDATE itself.
CREATE FUNCTION fleet_figures_terminals_trigger() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('INSERT', 'UPDATE') THEN EXECUTE fleet_counts_delta_sql(1, 'new_rows'); END IF;
  IF TG_OP IN ('UPDATE', 'DELETE') THEN EXECUTE fleet_counts_delta_sql(-1, 'old_rows'); END IF;
  RETURN NULL;
END
$$;

CREATE TRIGGER fleet_figures_terminals_insert AFTER INSERT ON terminals
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION fleet_figures_terminals_trigger();
CREATE TRIGGER fleet_figures_terminals_update AFTER UPDATE ON terminals
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION fleet_figures_terminals_trigger();
CREATE TRIGGER fleet_figures_terminals_delete AFTER DELETE ON terminals
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION fleet_figures_terminals_trigger();

-- From scratch: at this migration, and in the tests that check the triggers kept them exact.
CREATE FUNCTION fleet_figures_recount_terminals() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  UPDATE fleet_figures SET total = 0, priority = 0, active = 0, warning = 0, maintenance = 0, inactive = 0,
    assigned = 0, synced = 0, pending = 0, error = 0, on_active_line = 0
  WHERE id = 1;
  EXECUTE fleet_counts_delta_sql(1, 'terminals');
END
$$;

-- Telemetry: online means the last report was at most 60 seconds (the domain's
-- TELEMETRY_OFFLINE_AFTER_MS; a test holds the two equal) older than the reading stored, measured
-- at the reading, so an old reading does not make the whole fleet look offline.
CREATE FUNCTION fleet_figures_recount_telemetry() RETURNS void LANGUAGE sql AS $$
  UPDATE fleet_figures f SET telemetry_count = d.n, online_count = d.online, mean_signal_quality = d.mean
  FROM (
    SELECT count(*)::int AS n,
      (count(*) FILTER (WHERE tt.reported_at IS NOT NULL AND tt.synced_at - tt.reported_at <= interval '60 seconds'))::int AS online,
      avg(tt.signal_quality)::float8 AS mean
    FROM terminals t JOIN terminal_telemetry tt ON tt.user_terminal_id = t.user_terminal_id
    WHERE t.removed_at IS NULL AND t.active
  ) d
  WHERE f.id = 1
$$;

-- The cycles containing the day, of every line not removed (one cycle per line: a line's cycles
-- do not overlap).
CREATE FUNCTION fleet_figures_recount_usage(day date) RETURNS void LANGUAGE sql AS $$
  UPDATE fleet_figures f SET usage_day = day, usage_lines = d.n, priority_gb = d.priority, standard_gb = d.standard
  FROM (
    SELECT count(*)::int AS n, coalesce(sum(u.priority_gb), 0) AS priority, coalesce(sum(u.standard_gb), 0) AS standard
    FROM service_line_usage_cycles u
    WHERE u.cycle_start <= day AND u.cycle_end >= day
      AND NOT EXISTS (SELECT 1 FROM service_lines l WHERE l.service_line_number = u.service_line_number AND l.removed_at IS NOT NULL)
  ) d
  WHERE f.id = 1
$$;

CREATE FUNCTION fleet_figures_recount_activity(day date) RETURNS void LANGUAGE sql AS $$
  SELECT fleet_figures_recount_telemetry();
  SELECT fleet_figures_recount_usage(day);
  UPDATE fleet_figures SET activity_stale = false, recounted_at = now() WHERE id = 1;
$$;

CREATE FUNCTION fleet_figures_mark_stale_trigger() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- Not when already stale: an UPDATE that matches no row takes no lock.
  UPDATE fleet_figures SET activity_stale = true WHERE id = 1 AND NOT activity_stale;
  RETURN NULL;
END
$$;
CREATE TRIGGER fleet_figures_stale_telemetry AFTER INSERT OR UPDATE OR DELETE ON terminal_telemetry
  FOR EACH STATEMENT EXECUTE FUNCTION fleet_figures_mark_stale_trigger();
CREATE TRIGGER fleet_figures_stale_cycles AFTER INSERT OR UPDATE OR DELETE ON service_line_usage_cycles
  FOR EACH STATEMENT EXECUTE FUNCTION fleet_figures_mark_stale_trigger();
CREATE TRIGGER fleet_figures_stale_lines AFTER INSERT OR UPDATE OF removed_at OR DELETE ON service_lines
  FOR EACH STATEMENT EXECUTE FUNCTION fleet_figures_mark_stale_trigger();
CREATE TRIGGER fleet_figures_stale_terminals AFTER INSERT OR UPDATE OF active, removed_at OR DELETE ON terminals
  FOR EACH STATEMENT EXECUTE FUNCTION fleet_figures_mark_stale_trigger();

-- The row as a read should see it: recounted first when the day is not the one its usage is for,
-- or when stale and no sync run is writing (or the last recount is 30 seconds old).
CREATE FUNCTION fleet_figures_current(day date) RETURNS SETOF fleet_figures LANGUAGE plpgsql AS $$
BEGIN
  PERFORM 1 FROM fleet_figures f
  WHERE f.id = 1 AND (
    f.usage_day IS DISTINCT FROM day
    OR (f.activity_stale AND (
      f.recounted_at IS NULL OR f.recounted_at < now() - interval '30 seconds'
      OR NOT EXISTS (SELECT 1 FROM sync_runs WHERE status = 'running'))));
  IF FOUND THEN
    PERFORM fleet_figures_recount_activity(day);
  END IF;
  RETURN QUERY SELECT * FROM fleet_figures WHERE id = 1;
END
$$;

INSERT INTO fleet_figures (id) VALUES (1);
SELECT fleet_figures_recount_terminals();

-- Subscriptions: the page's rows, computed by the server (the forecast and the overage rounding
-- are the domain's), filtered, ordered and paged here. The order is the page's: over plan first,
-- most overage first, then by line and terminal in byte order.
CREATE TABLE subscription_rows (
  user_terminal_id text PRIMARY KEY,
  service_line_number text NOT NULL,
  monthly_data_gb numeric NOT NULL,
  overage_gb numeric NOT NULL,
  -- lower(terminal id, line, location, customer name) joined by U+001F, for the page's search.
  search_text text NOT NULL,
  -- The SubscriptionWire as the page receives it.
  wire jsonb NOT NULL
);
CREATE INDEX subscription_rows_order_idx ON subscription_rows (overage_gb DESC, service_line_number COLLATE "C", user_terminal_id COLLATE "C");
CREATE INDEX subscription_rows_plan_idx ON subscription_rows (monthly_data_gb, overage_gb DESC, service_line_number COLLATE "C", user_terminal_id COLLATE "C");
CREATE INDEX subscription_rows_line_idx ON subscription_rows (service_line_number);
CREATE INDEX subscription_rows_search_trgm_idx ON subscription_rows USING gin (search_text gin_trgm_ops);

-- The page's summary cards over every row, recounted after each refresh that changed rows; day is
-- the day the rows were computed for (each row's forecast and current cycle depend on it).
CREATE TABLE subscription_totals (
  id smallint PRIMARY KEY DEFAULT 1 CHECK (id = 1),
  day date,
  total integer NOT NULL DEFAULT 0,
  plans_50gb integer NOT NULL DEFAULT 0,
  plans_1tb integer NOT NULL DEFAULT 0,
  overage_terminals integer NOT NULL DEFAULT 0,
  total_overage_gb numeric NOT NULL DEFAULT 0
);
INSERT INTO subscription_totals (id) VALUES (1);

-- Lines whose rows must be computed again.
CREATE TABLE subscription_dirty (service_line_number text PRIMARY KEY);

-- Terminals: a row is made from its line, place, type, state, plan, cap and holder; a sync's
-- bookkeeping updates (sync status, times) change none of them and mark nothing.
CREATE FUNCTION subscription_dirty_terminals_trigger() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO subscription_dirty SELECT DISTINCT service_line_number FROM new_rows WHERE service_line_number IS NOT NULL
      ON CONFLICT DO NOTHING;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO subscription_dirty SELECT DISTINCT service_line_number FROM old_rows WHERE service_line_number IS NOT NULL
      ON CONFLICT DO NOTHING;
  ELSE
    INSERT INTO subscription_dirty
      SELECT line FROM (
        SELECT unnest(ARRAY[o.service_line_number, n.service_line_number]) AS line
        FROM old_rows o JOIN new_rows n USING (user_terminal_id)
        WHERE (o.service_line_number, o.location, o.terminal_type, o.active, o.removed_at, o.product_reference_id,
               o.plan, o.data_cap_amount, o.data_cap_unit, o.assigned_customer_id)
          IS DISTINCT FROM
              (n.service_line_number, n.location, n.terminal_type, n.active, n.removed_at, n.product_reference_id,
               n.plan, n.data_cap_amount, n.data_cap_unit, n.assigned_customer_id)
      ) changed
      WHERE line IS NOT NULL
      GROUP BY line
      ON CONFLICT DO NOTHING;
  END IF;
  RETURN NULL;
END
$$;
CREATE TRIGGER subscription_dirty_terminals_insert AFTER INSERT ON terminals
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION subscription_dirty_terminals_trigger();
CREATE TRIGGER subscription_dirty_terminals_update AFTER UPDATE ON terminals
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION subscription_dirty_terminals_trigger();
CREATE TRIGGER subscription_dirty_terminals_delete AFTER DELETE ON terminals
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION subscription_dirty_terminals_trigger();

-- Service lines: their state and product.
CREATE FUNCTION subscription_dirty_lines_trigger() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO subscription_dirty SELECT service_line_number FROM new_rows ON CONFLICT DO NOTHING;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO subscription_dirty SELECT service_line_number FROM old_rows ON CONFLICT DO NOTHING;
  ELSE
    INSERT INTO subscription_dirty
      SELECT n.service_line_number FROM old_rows o JOIN new_rows n USING (service_line_number)
      WHERE (o.active, o.product_reference_id, o.removed_at) IS DISTINCT FROM (n.active, n.product_reference_id, n.removed_at)
      ON CONFLICT DO NOTHING;
  END IF;
  RETURN NULL;
END
$$;
CREATE TRIGGER subscription_dirty_lines_insert AFTER INSERT ON service_lines
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION subscription_dirty_lines_trigger();
CREATE TRIGGER subscription_dirty_lines_update AFTER UPDATE ON service_lines
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION subscription_dirty_lines_trigger();
CREATE TRIGGER subscription_dirty_lines_delete AFTER DELETE ON service_lines
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION subscription_dirty_lines_trigger();

-- Usage cycles: the figures of a line's cycles.
CREATE FUNCTION subscription_dirty_cycles_trigger() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO subscription_dirty SELECT DISTINCT service_line_number FROM new_rows ON CONFLICT DO NOTHING;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO subscription_dirty SELECT DISTINCT service_line_number FROM old_rows ON CONFLICT DO NOTHING;
  ELSE
    INSERT INTO subscription_dirty
      SELECT DISTINCT n.service_line_number FROM old_rows o JOIN new_rows n USING (service_line_number, cycle_start)
      WHERE (o.cycle_end, o.priority_gb, o.usage_limit_gb) IS DISTINCT FROM (n.cycle_end, n.priority_gb, n.usage_limit_gb)
      ON CONFLICT DO NOTHING;
  END IF;
  RETURN NULL;
END
$$;
CREATE TRIGGER subscription_dirty_cycles_insert AFTER INSERT ON service_line_usage_cycles
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION subscription_dirty_cycles_trigger();
CREATE TRIGGER subscription_dirty_cycles_update AFTER UPDATE ON service_line_usage_cycles
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION subscription_dirty_cycles_trigger();
CREATE TRIGGER subscription_dirty_cycles_delete AFTER DELETE ON service_line_usage_cycles
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION subscription_dirty_cycles_trigger();

-- Customers: the holder's name on the rows of their terminals.
CREATE FUNCTION subscription_dirty_customers_trigger() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO subscription_dirty
    SELECT DISTINCT t.service_line_number
    FROM old_rows o JOIN new_rows n USING (id) JOIN terminals t ON t.assigned_customer_id = n.id
    WHERE o.name IS DISTINCT FROM n.name AND t.service_line_number IS NOT NULL
    ON CONFLICT DO NOTHING;
  RETURN NULL;
END
$$;
CREATE TRIGGER subscription_dirty_customers_update AFTER UPDATE ON customers
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION subscription_dirty_customers_trigger();

-- Products: the currency of the lines on them (a product may arrive after its lines).
CREATE FUNCTION subscription_dirty_products_trigger() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  changed text[];
BEGIN
  IF TG_OP = 'INSERT' THEN
    SELECT array_agg(product_reference_id) INTO changed FROM new_rows;
  ELSE
    SELECT array_agg(n.product_reference_id) INTO changed FROM old_rows o JOIN new_rows n USING (product_reference_id)
    WHERE o.iso_currency_code IS DISTINCT FROM n.iso_currency_code;
  END IF;
  IF changed IS NOT NULL THEN
    INSERT INTO subscription_dirty
      SELECT service_line_number FROM terminals WHERE product_reference_id = ANY (changed) AND service_line_number IS NOT NULL
      UNION
      SELECT service_line_number FROM service_lines WHERE product_reference_id = ANY (changed)
      ON CONFLICT DO NOTHING;
  END IF;
  RETURN NULL;
END
$$;
CREATE TRIGGER subscription_dirty_products_insert AFTER INSERT ON provider_products
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION subscription_dirty_products_trigger();
CREATE TRIGGER subscription_dirty_products_update AFTER UPDATE ON provider_products
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION subscription_dirty_products_trigger();

-- Every line with a live terminal is computed on first use.
INSERT INTO subscription_dirty
  SELECT DISTINCT service_line_number FROM terminals WHERE removed_at IS NULL AND service_line_number IS NOT NULL;
