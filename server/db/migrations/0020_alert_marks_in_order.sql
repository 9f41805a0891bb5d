-- Lines are marked for the alert evaluation in the order of their numbers.
--
-- Two transactions marking overlapping lines (a sync batch and an administrator's assignment,
-- say) wait on each other's uncommitted marks in alert_dirty_lines' primary key. Marked in
-- whatever order a hash aggregate gave, each could hold a line the other waits for: PostgreSQL
-- then ends one with a deadlock. Marked in one order, the later one waits and goes on.

CREATE OR REPLACE FUNCTION alert_dirty_cycles_trigger() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO alert_dirty_lines
      SELECT DISTINCT service_line_number FROM new_rows ORDER BY service_line_number
      ON CONFLICT DO NOTHING;
  ELSE
    INSERT INTO alert_dirty_lines
      SELECT DISTINCT n.service_line_number FROM old_rows o JOIN new_rows n USING (service_line_number, cycle_start)
      WHERE (o.cycle_end, o.priority_gb, o.usage_limit_gb) IS DISTINCT FROM (n.cycle_end, n.priority_gb, n.usage_limit_gb)
      ORDER BY n.service_line_number
      ON CONFLICT DO NOTHING;
  END IF;
  RETURN NULL;
END
$$;

CREATE OR REPLACE FUNCTION alert_dirty_terminals_trigger() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO alert_dirty_lines
      SELECT DISTINCT service_line_number FROM new_rows WHERE service_line_number IS NOT NULL
      ORDER BY service_line_number
      ON CONFLICT DO NOTHING;
  ELSE
    INSERT INTO alert_dirty_lines
      SELECT line FROM (
        SELECT unnest(ARRAY[o.service_line_number, n.service_line_number]) AS line
        FROM old_rows o JOIN new_rows n USING (user_terminal_id)
        WHERE (o.service_line_number, o.assigned_customer_id, o.removed_at, o.data_cap_amount, o.data_cap_unit)
          IS DISTINCT FROM (n.service_line_number, n.assigned_customer_id, n.removed_at, n.data_cap_amount, n.data_cap_unit)
      ) changed
      WHERE line IS NOT NULL
      GROUP BY line
      ORDER BY line
      ON CONFLICT DO NOTHING;
  END IF;
  RETURN NULL;
END
$$;

CREATE OR REPLACE FUNCTION alert_dirty_telemetry_trigger() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO alert_dirty_lines
    SELECT DISTINCT t.service_line_number
    FROM new_rows n
    LEFT JOIN old_rows o USING (user_terminal_id)
    JOIN terminals t ON t.user_terminal_id = n.user_terminal_id
    WHERE t.service_line_number IS NOT NULL
      AND (n.reported_at IS NULL OR n.synced_at - n.reported_at > interval '60 seconds'
           OR o.user_terminal_id IS NULL
           OR o.reported_at IS NULL OR o.synced_at - o.reported_at > interval '60 seconds')
    ORDER BY t.service_line_number
    ON CONFLICT DO NOTHING;
  RETURN NULL;
END
$$;

CREATE OR REPLACE FUNCTION alert_dirty_telemetry_insert_trigger() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO alert_dirty_lines
    SELECT DISTINCT t.service_line_number FROM new_rows n JOIN terminals t ON t.user_terminal_id = n.user_terminal_id
    WHERE t.service_line_number IS NOT NULL
    ORDER BY t.service_line_number
    ON CONFLICT DO NOTHING;
  RETURN NULL;
END
$$;
