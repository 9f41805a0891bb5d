-- Automatic actions on alert rules, and scheduled changes.
--
-- A rule's level may act on the line whose alert it opened: opt it out of priority data, stop its
-- recurring blocks, move it to another plan, block its customer's sign-in, or end it at the end of
-- the cycle; proposed to an admin first, or done at once. Each action runs at most once per line,
-- rule, level and billing cycle (automatic_actions_once_uq), whatever number of server processes
-- evaluate at the same moment. A scheduled change is one line or customer action set for a later
-- moment; it is claimed by one process when due (status scheduled → running), and a claim that a
-- stopped process left is taken again once it expires. The provider write of either is recorded
-- as an intent (provider_intents) under the action's or the schedule's own key, so a write whose
-- answer was lost is looked up before it is sent again.
-- Immutable once applied.

-- A scheduled or automatic change that failed for good raises an alert an admin must see.
ALTER TABLE alert_rules DROP CONSTRAINT alert_rules_kind_check;
ALTER TABLE alert_rules ADD CONSTRAINT alert_rules_kind_check
  CHECK (kind IN ('usage', 'overage_forecast', 'offline', 'sync_failed', 'account_expiring', 'change_failed'));
INSERT INTO alert_rules (kind, enabled) VALUES ('change_failed', true) ON CONFLICT DO NOTHING;

-- The actions of a rule (and of a customer's or line's override: null there is the rule's own):
-- [{ "level": 90, "action": "opt_out", "mode": "act", "productReferenceId": null }, …].
ALTER TABLE alert_rules ADD COLUMN actions jsonb NOT NULL DEFAULT '[]'::jsonb;
ALTER TABLE alert_rules ADD COLUMN actions_by uuid REFERENCES users (id) ON DELETE SET NULL;
ALTER TABLE alert_overrides ADD COLUMN actions jsonb;

CREATE TABLE automatic_actions (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  rule_kind text NOT NULL CHECK (rule_kind IN ('usage', 'overage_forecast')),
  level integer NOT NULL,
  action text NOT NULL CHECK (action IN ('opt_out', 'stop_recurring_blocks', 'change_plan', 'block_sign_in', 'end_at_cycle_end')),
  mode text NOT NULL CHECK (mode IN ('propose', 'act')),
  -- proposed: waits for an admin; queued: to run (act mode, or approved); running: claimed by one
  -- process until claimed_until; executed / failed / skipped: ran, or could not; dismissed: an
  -- admin said no; undone: taken back.
  status text NOT NULL CHECK (status IN ('proposed', 'queued', 'running', 'executed', 'failed', 'dismissed', 'undone', 'skipped')),
  service_line_number text NOT NULL,
  customer_id uuid REFERENCES customers (id) ON DELETE SET NULL,
  alert_id uuid REFERENCES alerts (id) ON DELETE SET NULL,
  cycle_start text NOT NULL,
  product_reference_id text,
  projected_saving numeric,
  currency text,
  set_up_by uuid REFERENCES users (id) ON DELETE SET NULL,
  decided_by uuid REFERENCES users (id) ON DELETE SET NULL,
  decided_at timestamptz,
  attempts integer NOT NULL DEFAULT 0,
  next_attempt_at timestamptz,
  claimed_until timestamptz,
  executed_at timestamptz,
  outcome text,
  -- What Undo restores (the recurring blocks or the plan the line had before).
  undo_state jsonb,
  undone_at timestamptz,
  undone_by uuid REFERENCES users (id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  CHECK ((action = 'change_plan') = (product_reference_id IS NOT NULL))
);
CREATE UNIQUE INDEX automatic_actions_once_uq ON automatic_actions (service_line_number, rule_kind, level, cycle_start, action);
CREATE INDEX automatic_actions_due_idx ON automatic_actions (next_attempt_at) WHERE status IN ('queued', 'running');
CREATE INDEX automatic_actions_waiting_idx ON automatic_actions (created_at) WHERE status = 'proposed';
CREATE INDEX automatic_actions_alert_idx ON automatic_actions (alert_id);
CREATE INDEX automatic_actions_created_idx ON automatic_actions (created_at DESC, id DESC);

CREATE TABLE scheduled_changes (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  operation text NOT NULL CHECK (operation IN ('change_plan', 'opt_in', 'opt_out', 'recurring_blocks', 'deactivate', 'block', 'unblock', 'extend')),
  target_type text NOT NULL CHECK (target_type IN ('line', 'customer')),
  target_key text NOT NULL,
  parameters jsonb NOT NULL DEFAULT '{}'::jsonb,
  run_at timestamptz NOT NULL,
  at_next_cycle boolean NOT NULL DEFAULT false,
  status text NOT NULL DEFAULT 'scheduled' CHECK (status IN ('scheduled', 'running', 'done', 'failed', 'skipped', 'cancelled')),
  attempts integer NOT NULL DEFAULT 0,
  -- When a due change may be tried again after a provider outage (null: at run_at).
  next_attempt_at timestamptz,
  claimed_until timestamptz,
  outcome text,
  created_by uuid REFERENCES users (id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  executed_at timestamptz,
  cancelled_by uuid REFERENCES users (id) ON DELETE SET NULL,
  cancelled_at timestamptz
);
CREATE INDEX scheduled_changes_due_idx ON scheduled_changes (run_at) WHERE status IN ('scheduled', 'running');
CREATE INDEX scheduled_changes_target_idx ON scheduled_changes (target_key, run_at);
CREATE INDEX scheduled_changes_created_idx ON scheduled_changes (run_at DESC, id DESC);

-- The audit log names a rule's action or a schedule as the actor of what they did.
ALTER TABLE audit_log DROP CONSTRAINT audit_log_actor_type_check;
ALTER TABLE audit_log ADD CONSTRAINT audit_log_actor_type_check
  CHECK (actor_type IN ('user', 'customer', 'member', 'api_key', 'system', 'anonymous', 'rule', 'schedule'));
ALTER TABLE audit_log DROP CONSTRAINT audit_log_actor_id_check;
ALTER TABLE audit_log ADD CONSTRAINT audit_log_actor_id_check
  CHECK ((actor_type IN ('user', 'customer', 'member', 'api_key', 'rule', 'schedule')) = (actor_id IS NOT NULL));
