-- Alerts and notifications: the rules (defaults, overridden per customer or per line),
-- the alerts they raise (one per rule, target, period and level: never twice for the same
-- threshold in one cycle), who reads them, the lines whose figures changed since the last
-- evaluation, and signed webhooks (endpoints, the events sent, each delivery and each attempt).
-- Immutable once applied.

-- One row per kind of rule: whether it runs, its default threshold, whether the customer's
-- contact gets an email too. Levels are percent of a line's cap (usage); threshold is the
-- projected overage charge (overage_forecast), minutes offline (offline) or days before the
-- account expires (account_expiring); sync_failed has none.
CREATE TABLE alert_rules (
  kind text PRIMARY KEY CHECK (kind IN ('usage', 'overage_forecast', 'offline', 'sync_failed', 'account_expiring')),
  enabled boolean NOT NULL DEFAULT true,
  usage_levels integer[],
  threshold numeric,
  notify_customer boolean NOT NULL DEFAULT false,
  updated_at timestamptz NOT NULL DEFAULT now(),
  updated_by uuid REFERENCES users (id) ON DELETE SET NULL
);
INSERT INTO alert_rules (kind, enabled, usage_levels, threshold) VALUES
  ('usage', true, '{80,90,100}', NULL),
  ('overage_forecast', true, NULL, 50),
  ('offline', true, NULL, 60),
  ('sync_failed', true, NULL, NULL),
  ('account_expiring', true, NULL, 14);

-- A customer's or a line's own settings for a line rule: the line's win over its customer's,
-- which win over the rule's. A null level list or threshold keeps the next one's.
CREATE TABLE alert_overrides (
  kind text NOT NULL REFERENCES alert_rules (kind),
  scope text NOT NULL CHECK (scope IN ('customer', 'line')),
  -- The customer's id (as text) or the service line number.
  scope_key text NOT NULL,
  enabled boolean NOT NULL DEFAULT true,
  usage_levels integer[],
  threshold numeric,
  updated_at timestamptz NOT NULL DEFAULT now(),
  updated_by uuid REFERENCES users (id) ON DELETE SET NULL,
  PRIMARY KEY (kind, scope, scope_key),
  CHECK (kind IN ('usage', 'overage_forecast', 'offline') OR (kind = 'account_expiring' AND scope = 'customer'))
);

-- Admins who get an email when a rule of the kind opens an alert.
CREATE TABLE alert_subscriptions (
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  kind text NOT NULL REFERENCES alert_rules (kind),
  PRIMARY KEY (user_id, kind)
);

-- An alert: open → acknowledged → resolved (by itself when the condition clears). period_key is
-- the billing cycle's first day (usage, overage_forecast), the last report before the outage
-- (offline), the first failed run of a failing streak (sync_failed) or the expiry date
-- (account_expiring); level is the threshold crossed (usage) or 0. The unique index is what keeps
-- a second alert out when the job runs twice or in two processes at once.
CREATE TABLE alerts (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  kind text NOT NULL REFERENCES alert_rules (kind),
  level integer NOT NULL DEFAULT 0,
  severity text NOT NULL CHECK (severity IN ('warning', 'critical')),
  target_type text NOT NULL CHECK (target_type IN ('line', 'terminal', 'customer', 'sync')),
  target_key text NOT NULL,
  period_key text NOT NULL,
  service_line_number text,
  user_terminal_id text,
  customer_id uuid REFERENCES customers (id),
  status text NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'acknowledged', 'resolved')),
  message text NOT NULL,
  -- The figures when it opened (used, cap, percent, projected charge, minutes offline, …).
  figures jsonb NOT NULL DEFAULT '{}',
  opened_at timestamptz NOT NULL,
  acknowledged_at timestamptz,
  acknowledged_by uuid REFERENCES users (id) ON DELETE SET NULL,
  resolved_at timestamptz,
  resolved_reason text
);
CREATE UNIQUE INDEX alerts_once_uq ON alerts (kind, target_key, period_key, level, coalesce(customer_id, '00000000-0000-0000-0000-000000000000'::uuid));
CREATE INDEX alerts_unresolved_idx ON alerts (kind, target_key) WHERE status <> 'resolved';
CREATE INDEX alerts_unresolved_line_idx ON alerts (service_line_number) WHERE status <> 'resolved';
CREATE INDEX alerts_status_opened_idx ON alerts (status, opened_at DESC);
CREATE INDEX alerts_opened_idx ON alerts (opened_at DESC);
CREATE INDEX alerts_customer_idx ON alerts (customer_id, opened_at DESC) WHERE customer_id IS NOT NULL;

-- When each user last opened the bell: alerts opened since are unread for them.
CREATE TABLE alert_reads (
  user_id uuid PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
  seen_at timestamptz NOT NULL
);

-- Lines whose figures changed since the last evaluation (written by the triggers below, taken
-- by the evaluation job): the job reads these lines only, never the whole fleet.
CREATE TABLE alert_dirty_lines (service_line_number text PRIMARY KEY);

CREATE FUNCTION alert_dirty_cycles_trigger() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO alert_dirty_lines SELECT DISTINCT service_line_number FROM new_rows ON CONFLICT DO NOTHING;
  ELSE
    INSERT INTO alert_dirty_lines
      SELECT DISTINCT n.service_line_number FROM old_rows o JOIN new_rows n USING (service_line_number, cycle_start)
      WHERE (o.cycle_end, o.priority_gb, o.usage_limit_gb) IS DISTINCT FROM (n.cycle_end, n.priority_gb, n.usage_limit_gb)
      ON CONFLICT DO NOTHING;
  END IF;
  RETURN NULL;
END
$$;
CREATE TRIGGER alert_dirty_cycles_insert AFTER INSERT ON service_line_usage_cycles
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION alert_dirty_cycles_trigger();
CREATE TRIGGER alert_dirty_cycles_update AFTER UPDATE ON service_line_usage_cycles
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION alert_dirty_cycles_trigger();

-- Terminals: a line moving to another customer or terminal, a cap that changed, a removal.
CREATE FUNCTION alert_dirty_terminals_trigger() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO alert_dirty_lines SELECT DISTINCT service_line_number FROM new_rows WHERE service_line_number IS NOT NULL
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
      ON CONFLICT DO NOTHING;
  END IF;
  RETURN NULL;
END
$$;
CREATE TRIGGER alert_dirty_terminals_insert AFTER INSERT ON terminals
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION alert_dirty_terminals_trigger();
CREATE TRIGGER alert_dirty_terminals_update AFTER UPDATE ON terminals
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION alert_dirty_terminals_trigger();

-- Telemetry: a terminal whose report changed from fresh to stale or back, and every terminal
-- still stale (its time offline grows with each reading). A terminal online and still online
-- marks nothing, so a telemetry sync of a healthy fleet leaves the job almost nothing to read.
CREATE FUNCTION alert_dirty_telemetry_trigger() RETURNS trigger LANGUAGE plpgsql AS $$
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
    ON CONFLICT DO NOTHING;
  RETURN NULL;
END
$$;
CREATE FUNCTION alert_dirty_telemetry_insert_trigger() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO alert_dirty_lines
    SELECT DISTINCT t.service_line_number FROM new_rows n JOIN terminals t ON t.user_terminal_id = n.user_terminal_id
    WHERE t.service_line_number IS NOT NULL
    ON CONFLICT DO NOTHING;
  RETURN NULL;
END
$$;
CREATE TRIGGER alert_dirty_telemetry_insert AFTER INSERT ON terminal_telemetry
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION alert_dirty_telemetry_insert_trigger();
CREATE TRIGGER alert_dirty_telemetry_update AFTER UPDATE ON terminal_telemetry
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION alert_dirty_telemetry_trigger();

-- ---- Webhooks ---------------------------------------------------------------------------------

-- An endpoint an admin registered. The secret is kept sealed (server/auth/secret-box.ts); it is
-- shown once, when created or rotated. event_types empty: every event.
CREATE TABLE webhook_endpoints (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  url text NOT NULL,
  description text NOT NULL DEFAULT '',
  secret_sealed text NOT NULL,
  secret_hint text NOT NULL,
  event_types text[] NOT NULL DEFAULT '{}',
  status text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'disabled')),
  disabled_reason text,
  disabled_at timestamptz,
  consecutive_failures integer NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL DEFAULT now(),
  created_by uuid REFERENCES users (id) ON DELETE SET NULL,
  updated_at timestamptz NOT NULL DEFAULT now(),
  deleted_at timestamptz
);

-- One event, sent to every endpoint that takes its type: its id is the payload's id, so a
-- receiver can drop a delivery it has already seen (a retry or a replay).
CREATE TABLE webhook_events (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  type text NOT NULL,
  payload jsonb NOT NULL,
  created_at timestamptz NOT NULL
);

-- One event to one endpoint: pending until an attempt succeeds, retried with back-off until
-- 24 hours after it was created, then abandoned. A replay is a new delivery of the same event.
CREATE TABLE webhook_deliveries (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  endpoint_id uuid NOT NULL REFERENCES webhook_endpoints (id),
  event_id uuid NOT NULL REFERENCES webhook_events (id),
  status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'succeeded', 'abandoned')),
  attempts integer NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL,
  next_attempt_at timestamptz,
  -- A worker that takes a delivery holds it until then (a crash lets it go).
  locked_until timestamptz,
  last_attempt_at timestamptz,
  response_status integer,
  latency_ms integer,
  response_excerpt text,
  error text,
  replay_of uuid REFERENCES webhook_deliveries (id)
);
CREATE INDEX webhook_deliveries_due_idx ON webhook_deliveries (next_attempt_at) WHERE status = 'pending';
CREATE INDEX webhook_deliveries_endpoint_idx ON webhook_deliveries (endpoint_id, created_at DESC);

-- Every attempt of a delivery: the log an admin reads on the endpoint's page.
CREATE TABLE webhook_attempts (
  id bigserial PRIMARY KEY,
  delivery_id uuid NOT NULL REFERENCES webhook_deliveries (id),
  attempted_at timestamptz NOT NULL,
  response_status integer,
  latency_ms integer,
  response_excerpt text,
  error text
);
CREATE INDEX webhook_attempts_delivery_idx ON webhook_attempts (delivery_id, attempted_at DESC);
