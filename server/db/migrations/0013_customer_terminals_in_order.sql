-- A customer's live terminals in the order their pages list them (service line, then terminal),
-- with what the assigned list shows, so that list is read from the index alone. Immutable once
-- applied.
--
-- At 100,000 terminals the largest customer holds 3,137 of them: the list read them through
-- terminals_customer_idx, then each one's row from a table of 4 GB, then sorted them (61 ms p95
-- in bench:scale, 103 ms while a sync wrote). terminals_customer_idx stays: the terminal search
-- and the checks that count removed terminals too use it.
CREATE INDEX terminals_customer_live_idx ON terminals (assigned_customer_id, service_line_number, user_terminal_id)
  INCLUDE (kit_serial_number, active, assigned_at)
  WHERE removed_at IS NULL AND assigned_customer_id IS NOT NULL;
