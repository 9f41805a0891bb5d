-- Each customer's usage per day, kept as the lines' days are written, so the chart on a customer's
-- page reads a month of rows instead of every line's days. Immutable once applied.
--
-- A customer's day is the sum over the service lines the customer holds (a live terminal of the
-- customer on the line; two terminals on one line count it once), whatever the day: the chart
-- shows the lines the customer has now, as its query did before this table. At 100,000 terminals
-- the largest customer holds 3,300 lines, and that query read 100,000 daily rows for a month.
--
-- Written the way 0011 writes the fleet's counts: statements append deltas and nobody updates a
-- row, so two writers never wait on one another's row. A read sums a customer's deltas in the
-- range; the usage sync folds them after each run (customer_usage_daily_fold).
--
-- Two writers change the figures:
-- 1. a statement on service_line_usage_daily adds its rows' change to the holders of their lines;
-- 2. a statement on terminals that changes who holds a line adds the line's whole history to the
--    customer who now holds it and takes it from the one who no longer does.
-- Both at once on one line would race (the usage written under the old holder, the history read
-- before that usage committed), so (1) reads the holders with FOR SHARE: a change of holder in
-- progress finishes first, and one that starts later waits for the usage to commit and then
-- reads it (each statement of a trigger function has a snapshot of its own).

CREATE TABLE customer_usage_daily_deltas (
  id bigserial PRIMARY KEY,
  customer_id uuid NOT NULL,
  usage_date date NOT NULL,
  priority_gb numeric NOT NULL,
  standard_gb numeric NOT NULL
);
CREATE INDEX customer_usage_daily_deltas_customer_day_idx ON customer_usage_daily_deltas (customer_id, usage_date);

-- (1) The holders of the changed lines, locked in id order (the order every writer of terminals
-- takes), then the change per holder and day. Transition tables are visible to the trigger
-- function's own statements only, so it runs the INSERT itself.
CREATE FUNCTION customer_usage_daily_days_trigger() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  changed text := CASE TG_OP
    WHEN 'INSERT' THEN 'SELECT service_line_number, usage_date, priority_gb, standard_gb FROM new_rows'
    WHEN 'DELETE' THEN 'SELECT service_line_number, usage_date, -priority_gb, -standard_gb FROM old_rows'
    ELSE 'SELECT service_line_number, usage_date, priority_gb, standard_gb FROM new_rows
          UNION ALL SELECT service_line_number, usage_date, -priority_gb, -standard_gb FROM old_rows' END;
BEGIN
  EXECUTE format($q$
    WITH changed (line, usage_date, priority_gb, standard_gb) AS (%s),
    holders AS (
      SELECT DISTINCT h.customer_id, h.line FROM (
        SELECT t.assigned_customer_id AS customer_id, t.service_line_number AS line
        FROM terminals t
        WHERE t.removed_at IS NULL AND t.service_line_number IN (SELECT line FROM changed)
        ORDER BY t.user_terminal_id
        FOR SHARE OF t
      ) h
      WHERE h.customer_id IS NOT NULL
    )
    INSERT INTO customer_usage_daily_deltas (customer_id, usage_date, priority_gb, standard_gb)
    SELECT h.customer_id, c.usage_date, sum(c.priority_gb), sum(c.standard_gb)
    FROM changed c JOIN holders h ON h.line = c.line
    GROUP BY h.customer_id, c.usage_date
    HAVING sum(c.priority_gb) <> 0 OR sum(c.standard_gb) <> 0$q$, changed);
  RETURN NULL;
END
$$;

CREATE TRIGGER customer_usage_daily_days_insert AFTER INSERT ON service_line_usage_daily
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION customer_usage_daily_days_trigger();
CREATE TRIGGER customer_usage_daily_days_update AFTER UPDATE ON service_line_usage_daily
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION customer_usage_daily_days_trigger();
CREATE TRIGGER customer_usage_daily_days_delete AFTER DELETE ON service_line_usage_daily
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION customer_usage_daily_days_trigger();

-- (2) The (customer, line) pairs the statement's rows stood for, before and after, where a row's
-- holder, line or liveness changed (most statements on terminals change none of them). A pair is
-- held after when a live terminal of it is in the table now, and held before when one was in the
-- table as it stood: the rows the statement did not write, or its old rows.
CREATE FUNCTION customer_usage_daily_holders_trigger() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  moved text := CASE TG_OP
    WHEN 'INSERT' THEN 'SELECT assigned_customer_id, service_line_number, removed_at FROM new_rows'
    WHEN 'DELETE' THEN 'SELECT assigned_customer_id, service_line_number, removed_at FROM old_rows'
    ELSE 'SELECT x.assigned_customer_id, x.service_line_number, x.removed_at
          FROM old_rows o JOIN new_rows n ON n.user_terminal_id = o.user_terminal_id
          CROSS JOIN LATERAL (VALUES (o.assigned_customer_id, o.service_line_number, o.removed_at),
                                     (n.assigned_customer_id, n.service_line_number, n.removed_at))
            AS x (assigned_customer_id, service_line_number, removed_at)
          WHERE (o.assigned_customer_id, o.service_line_number, o.removed_at IS NULL)
                IS DISTINCT FROM (n.assigned_customer_id, n.service_line_number, n.removed_at IS NULL)' END;
  written text := CASE WHEN TG_OP = 'DELETE' THEN 'SELECT NULL::text WHERE false' ELSE 'SELECT user_terminal_id FROM new_rows' END;
  before text := CASE WHEN TG_OP = 'INSERT' THEN 'SELECT NULL::uuid, NULL::text WHERE false'
    ELSE 'SELECT assigned_customer_id, service_line_number FROM old_rows WHERE removed_at IS NULL' END;
BEGIN
  EXECUTE format($q$
    WITH pairs AS (
      SELECT DISTINCT m.assigned_customer_id AS customer_id, m.service_line_number AS line
      FROM (%s) m
      WHERE m.assigned_customer_id IS NOT NULL AND m.service_line_number IS NOT NULL AND m.removed_at IS NULL
    ),
    held AS (
      SELECT p.customer_id, p.line,
        EXISTS (SELECT 1 FROM terminals t
                WHERE t.assigned_customer_id = p.customer_id AND t.service_line_number = p.line AND t.removed_at IS NULL) AS now,
        EXISTS (SELECT 1 FROM terminals t
                WHERE t.assigned_customer_id = p.customer_id AND t.service_line_number = p.line AND t.removed_at IS NULL
                  AND t.user_terminal_id NOT IN (%s))
          OR EXISTS (SELECT 1 FROM (%s) o (customer_id, line) WHERE o.customer_id = p.customer_id AND o.line = p.line) AS before
      FROM pairs p
    )
    INSERT INTO customer_usage_daily_deltas (customer_id, usage_date, priority_gb, standard_gb)
    SELECT s.customer_id, s.usage_date, s.priority_gb, s.standard_gb FROM (
      SELECT h.customer_id, d.usage_date,
        sum(CASE WHEN h.now THEN d.priority_gb ELSE -d.priority_gb END) AS priority_gb,
        sum(CASE WHEN h.now THEN d.standard_gb ELSE -d.standard_gb END) AS standard_gb
      FROM held h JOIN service_line_usage_daily d ON d.service_line_number = h.line
      WHERE h.now <> h.before
      GROUP BY h.customer_id, d.usage_date
    ) s
    WHERE s.priority_gb <> 0 OR s.standard_gb <> 0$q$, moved, written, before);
  RETURN NULL;
END
$$;

CREATE TRIGGER customer_usage_daily_holders_insert AFTER INSERT ON terminals
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION customer_usage_daily_holders_trigger();
CREATE TRIGGER customer_usage_daily_holders_update AFTER UPDATE ON terminals
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION customer_usage_daily_holders_trigger();
CREATE TRIGGER customer_usage_daily_holders_delete AFTER DELETE ON terminals
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION customer_usage_daily_holders_trigger();

-- A customer's days from the lines themselves: what the deltas must add up to (the tests compare
-- them) and how they start.
CREATE FUNCTION customer_usage_daily_from_lines(customer uuid, from_day date, to_day date)
RETURNS TABLE (usage_date date, priority_gb numeric, standard_gb numeric) LANGUAGE sql STABLE AS $$
  SELECT d.usage_date, sum(d.priority_gb), sum(d.standard_gb)
  FROM (SELECT DISTINCT t.service_line_number AS line FROM terminals t
        WHERE t.assigned_customer_id = customer AND t.removed_at IS NULL AND t.service_line_number IS NOT NULL) l
  JOIN service_line_usage_daily d ON d.service_line_number = l.line AND d.usage_date BETWEEN from_day AND to_day
  GROUP BY d.usage_date
$$;

-- Each (customer, day) with several deltas becomes one row, in one statement: exactly the rows it
-- deletes are added, so a delta appended meanwhile stays for the next fold. One process at a time
-- (an advisory lock; another caller returns at once).
CREATE FUNCTION customer_usage_daily_fold() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF NOT pg_try_advisory_xact_lock(720150013) THEN RETURN; END IF;
  WITH keys AS (
    SELECT customer_id, usage_date FROM customer_usage_daily_deltas GROUP BY customer_id, usage_date HAVING count(*) > 1
  ),
  moved AS (
    DELETE FROM customer_usage_daily_deltas d USING keys k
    WHERE d.customer_id = k.customer_id AND d.usage_date = k.usage_date
    RETURNING d.customer_id, d.usage_date, d.priority_gb, d.standard_gb
  )
  INSERT INTO customer_usage_daily_deltas (customer_id, usage_date, priority_gb, standard_gb)
  SELECT customer_id, usage_date, sum(priority_gb), sum(standard_gb) FROM moved
  GROUP BY customer_id, usage_date
  HAVING sum(priority_gb) <> 0 OR sum(standard_gb) <> 0;
END
$$;

INSERT INTO customer_usage_daily_deltas (customer_id, usage_date, priority_gb, standard_gb)
SELECT l.customer_id, d.usage_date, sum(d.priority_gb), sum(d.standard_gb)
FROM (SELECT DISTINCT t.assigned_customer_id AS customer_id, t.service_line_number AS line FROM terminals t
      WHERE t.assigned_customer_id IS NOT NULL AND t.removed_at IS NULL AND t.service_line_number IS NOT NULL) l
JOIN service_line_usage_daily d ON d.service_line_number = l.line
GROUP BY l.customer_id, d.usage_date
HAVING sum(d.priority_gb) <> 0 OR sum(d.standard_gb) <> 0;
