-- Each customer's usage table for the current month, kept per terminal, so the table's
-- page and its summary cards read one index range of the customer's rows. Immutable once applied.
--
-- At 100,000 terminals the largest customer holds 3,137 of them, and the page read each one's
-- terminal row, line and cycle by a key lookup in tables of gigabytes: 68 ms p95 idle in
-- bench:scale (82 sorted by usage), against 25 asked.
--
-- The rows follow subscription_rows (0009): the marks in subscription_dirty say which lines to
-- compute again, the refresh that computes a line's subscription rows computes its rows here in
-- the same transaction, and every line is computed again on the first read of a day. A row is the
-- customer usage page's row (the columns of its query, with the status and allowance) for the cycle
-- that started in the month of subscription_totals.day, which is what the page asks for the current
-- month. A refresh writes only the rows that changed, so the index stays all-visible. A read uses them
-- only for that month, when that day is today and no line is marked; otherwise it reads the tables
-- as before, so the page is never behind.
--
-- The marks did not cover all the table shows: the terminal's condition and sync status (its
-- status column) and a cycle's standard GB (the data used). The two trigger functions below add
-- them; the subscription rows of such a line are computed again for nothing, which is cheap.

CREATE TABLE customer_usage_rows (
  user_terminal_id text PRIMARY KEY,
  customer_id uuid NOT NULL,
  service_line_number text NOT NULL,
  location text,
  terminal_type text,
  plan text,
  active boolean NOT NULL,
  condition text NOT NULL,
  sync_status text NOT NULL,
  data_cap_amount numeric,
  data_cap_unit text,
  line_active boolean,
  cycle_start date,
  cycle_end date,
  priority_gb numeric,
  standard_gb numeric,
  cycle_limit_gb numeric,
  -- The table's status column and the allowance its bars and sorts use, computed with the row.
  status text NOT NULL,
  allowance_gb numeric NOT NULL
);
-- The page's default order within a customer, covering every column: the page and its summary read
-- one range of this index. The table's rows are written line by line across customers, so the
-- largest customer's rows lie on most of the table's pages; read from the index they are together.
CREATE INDEX customer_usage_rows_customer_idx ON customer_usage_rows (customer_id, service_line_number, user_terminal_id)
  INCLUDE (location, terminal_type, plan, active, condition, sync_status, data_cap_amount, data_cap_unit, line_active,
    cycle_start, cycle_end, priority_gb, standard_gb, cycle_limit_gb, status, allowance_gb);
CREATE INDEX customer_usage_rows_line_idx ON customer_usage_rows (service_line_number);

CREATE OR REPLACE FUNCTION subscription_dirty_terminals_trigger() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO subscription_dirty SELECT DISTINCT service_line_number FROM new_rows WHERE service_line_number IS NOT NULL;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO subscription_dirty SELECT DISTINCT service_line_number FROM old_rows WHERE service_line_number IS NOT NULL;
  ELSE
    INSERT INTO subscription_dirty
      SELECT line FROM (
        SELECT unnest(ARRAY[o.service_line_number, n.service_line_number]) AS line
        FROM old_rows o JOIN new_rows n USING (user_terminal_id)
        WHERE (o.service_line_number, o.location, o.terminal_type, o.active, o.removed_at, o.product_reference_id,
               o.plan, o.data_cap_amount, o.data_cap_unit, o.assigned_customer_id, o.condition, o.sync_status)
          IS DISTINCT FROM
              (n.service_line_number, n.location, n.terminal_type, n.active, n.removed_at, n.product_reference_id,
               n.plan, n.data_cap_amount, n.data_cap_unit, n.assigned_customer_id, n.condition, n.sync_status)
      ) changed
      WHERE line IS NOT NULL
      GROUP BY line;
  END IF;
  RETURN NULL;
END
$$;

CREATE OR REPLACE FUNCTION subscription_dirty_cycles_trigger() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO subscription_dirty SELECT DISTINCT service_line_number FROM new_rows;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO subscription_dirty SELECT DISTINCT service_line_number FROM old_rows;
  ELSE
    INSERT INTO subscription_dirty
      SELECT DISTINCT n.service_line_number FROM old_rows o JOIN new_rows n USING (service_line_number, cycle_start)
      WHERE (o.cycle_end, o.priority_gb, o.standard_gb, o.usage_limit_gb) IS DISTINCT FROM (n.cycle_end, n.priority_gb, n.standard_gb, n.usage_limit_gb);
  END IF;
  RETURN NULL;
END
$$;

-- Every line with a live terminal is computed on the next read, which fills the new table.
INSERT INTO subscription_dirty
  SELECT DISTINCT service_line_number FROM terminals WHERE removed_at IS NULL AND service_line_number IS NOT NULL;
