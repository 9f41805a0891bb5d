-- Customer self-service: the requests customers send to the admins (a plan change or a
-- top-up), the terminal reboots they ask for (kept to pace them), and password links that reset a
-- forgotten password rather than set a first one. Immutable once applied.

-- A request a customer makes about one of their service lines; an admin approves it (the provider
-- call runs then) or declines it with a reason; the customer may cancel it while it is pending.
-- At most one pending request of each kind per line, whoever asked.
CREATE TABLE customer_requests (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  customer_id uuid NOT NULL REFERENCES customers (id),
  service_line_number text NOT NULL,
  kind text NOT NULL CHECK (kind IN ('plan_change', 'top_up')),
  -- The plan asked for (plan_change) or the top-up product (top_up).
  product_id text NOT NULL,
  -- Top-up blocks asked for; null for a plan change.
  block_count integer CHECK (block_count IS NULL OR block_count BETWEEN 1 AND 100),
  note text,
  status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'approved', 'declined', 'cancelled')),
  decision_reason text,
  decided_by uuid REFERENCES users (id) ON DELETE SET NULL,
  decided_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX customer_requests_one_pending_uq ON customer_requests (service_line_number, kind) WHERE status = 'pending';
CREATE INDEX customer_requests_customer_idx ON customer_requests (customer_id, created_at DESC);
CREATE INDEX customer_requests_status_idx ON customer_requests (status, created_at DESC);

-- Every reboot a customer asked for that went to the provider: the pace is read from here.
CREATE TABLE terminal_reboots (
  id bigserial PRIMARY KEY,
  user_terminal_id text NOT NULL,
  customer_id uuid REFERENCES customers (id),
  requested_at timestamptz NOT NULL
);
CREATE INDEX terminal_reboots_terminal_idx ON terminal_reboots (user_terminal_id, requested_at DESC);
CREATE INDEX terminal_reboots_customer_idx ON terminal_reboots (customer_id, requested_at DESC);

-- A link either sets the first password (the emailed set-up link) or resets a forgotten one.
ALTER TABLE password_setup_tokens ADD COLUMN purpose text NOT NULL DEFAULT 'setup' CHECK (purpose IN ('setup', 'reset'));
