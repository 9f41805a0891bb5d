-- The terminal inventory mirrored from the provider, the reference data it is built from
-- (products, addresses, service lines, latest telemetry, billing-cycle usage) and the sync runs
-- that keep it in step. Immutable once applied.
--
-- Provider ids are the keys: a user terminal id, a service line number, a product reference id
-- and an address reference id are unique across the provider, so no surrogate keys are needed.
-- `removed_at` marks a record the provider no longer lists (kept, with its assignment history,
-- and left out of every list); a record that comes back clears it.

CREATE TABLE provider_products (
  product_reference_id text PRIMARY KEY,
  account_number text NOT NULL,
  name text NOT NULL,
  price numeric,
  iso_currency_code text,
  is_sla boolean NOT NULL DEFAULT false,
  raw jsonb NOT NULL,
  synced_at timestamptz NOT NULL,
  removed_at timestamptz
);

CREATE TABLE provider_addresses (
  address_reference_id text PRIMARY KEY,
  account_number text NOT NULL,
  formatted_address text,
  locality text,
  region text,
  region_code text,
  latitude double precision,
  longitude double precision,
  synced_at timestamptz NOT NULL,
  removed_at timestamptz
);

CREATE TABLE service_lines (
  service_line_number text PRIMARY KEY,
  account_number text NOT NULL,
  nickname text,
  product_reference_id text,
  address_reference_id text,
  active boolean NOT NULL,
  start_date timestamptz,
  end_date timestamptz,
  public_ip boolean,
  data_blocks jsonb,
  synced_at timestamptz NOT NULL,
  removed_at timestamptz
);

CREATE TABLE terminals (
  user_terminal_id text PRIMARY KEY,
  account_number text NOT NULL,
  kit_serial_number text NOT NULL,
  dish_serial_number text,
  service_line_number text,
  nickname text,
  -- v2 terminals carry no active flag: active means on an active service line.
  active boolean NOT NULL DEFAULT false,
  -- active | warning | maintenance | inactive, from the line and the latest telemetry (src/domain/terminals.ts).
  condition text NOT NULL DEFAULT 'inactive',
  is_priority boolean NOT NULL DEFAULT false,
  assigned_customer_id uuid REFERENCES customers (id),
  assigned_at timestamptz,
  sync_status text NOT NULL DEFAULT 'pending',
  sync_error text,
  last_synced_at timestamptz,
  -- The run that last wrote this row, and a hash of the provider fields it was built from
  -- (unchanged rows are counted, not rewritten).
  last_sync_run_id uuid,
  content_hash text,
  data_cap_amount numeric,
  data_cap_unit text,
  data_cap_updated_at timestamptz,
  plan text,
  product_reference_id text,
  terminal_type text,
  model text,
  location text,
  region text,
  latitude double precision,
  longitude double precision,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  removed_at timestamptz,
  -- Spec 5 "Terminals search": the four provider ids and the assigned customer's id, lower-cased,
  -- U+001F between fields so a term cannot match across two. (The customer's name is searched
  -- through the customers table's own trigram index.)
  search_text text NOT NULL GENERATED ALWAYS AS (
    lower(user_terminal_id) || chr(31) || lower(kit_serial_number) || chr(31) || lower(coalesce(dish_serial_number, ''))
    || chr(31) || lower(coalesce(service_line_number, '')) || chr(31) || coalesce(assigned_customer_id::text, '')
  ) STORED,
  CONSTRAINT terminals_sync_status_check CHECK (sync_status IN ('synced', 'pending', 'error')),
  CONSTRAINT terminals_condition_check CHECK (condition IN ('active', 'warning', 'maintenance', 'inactive')),
  CONSTRAINT terminals_assignment_check CHECK ((assigned_customer_id IS NULL) = (assigned_at IS NULL))
);
-- fastupdate off: the embedded database has no autovacuum to flush GIN's pending list.
CREATE INDEX terminals_search_trgm_idx ON terminals USING gin (search_text gin_trgm_ops) WITH (fastupdate = off);
CREATE INDEX terminals_live_line_idx ON terminals (service_line_number, user_terminal_id) WHERE removed_at IS NULL;
CREATE INDEX terminals_customer_idx ON terminals (assigned_customer_id) WHERE assigned_customer_id IS NOT NULL;
CREATE INDEX terminals_sync_status_idx ON terminals (sync_status) WHERE removed_at IS NULL;

CREATE TABLE terminal_telemetry (
  user_terminal_id text PRIMARY KEY REFERENCES terminals (user_terminal_id),
  reported_at timestamptz,
  uptime_seconds double precision,
  signal_quality double precision,
  downlink_mbps double precision,
  uplink_mbps double precision,
  latency_ms double precision,
  ping_drop_rate double precision,
  obstruction_percent double precision,
  software_version text,
  hardware_version text,
  alerts text[] NOT NULL DEFAULT '{}',
  synced_at timestamptz NOT NULL
);

-- One row per service line and billing cycle, from the provider's data-usage query; the days of
-- the cycle in service_line_usage_daily. Re-reading a cycle replaces its numbers (idempotent).
CREATE TABLE service_line_usage_cycles (
  service_line_number text NOT NULL,
  cycle_start date NOT NULL,
  cycle_end date NOT NULL,
  priority_gb numeric NOT NULL DEFAULT 0,
  standard_gb numeric NOT NULL DEFAULT 0,
  opt_in_priority_gb numeric NOT NULL DEFAULT 0,
  non_billable_gb numeric NOT NULL DEFAULT 0,
  usage_limit_gb numeric,
  overage_gb numeric,
  product_id text,
  last_updated timestamptz,
  synced_at timestamptz NOT NULL,
  PRIMARY KEY (service_line_number, cycle_start),
  CONSTRAINT service_line_usage_cycles_range_check CHECK (cycle_end >= cycle_start)
);
CREATE INDEX service_line_usage_cycles_start_idx ON service_line_usage_cycles (cycle_start);

CREATE TABLE service_line_usage_daily (
  service_line_number text NOT NULL,
  usage_date date NOT NULL,
  priority_gb numeric NOT NULL DEFAULT 0,
  standard_gb numeric NOT NULL DEFAULT 0,
  opt_in_priority_gb numeric NOT NULL DEFAULT 0,
  non_billable_gb numeric NOT NULL DEFAULT 0,
  synced_at timestamptz NOT NULL,
  PRIMARY KEY (service_line_number, usage_date)
);

-- One row per sync run: what the portal shows about a job (the queue table belongs to pg-boss).
CREATE TABLE sync_runs (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  kind text NOT NULL,
  trigger text NOT NULL,
  status text NOT NULL,
  phase text,
  progress integer,
  added integer NOT NULL DEFAULT 0,
  updated integer NOT NULL DEFAULT 0,
  unchanged integer NOT NULL DEFAULT 0,
  removed integer NOT NULL DEFAULT 0,
  failed integer NOT NULL DEFAULT 0,
  provider_calls integer NOT NULL DEFAULT 0,
  message text,
  requested_by uuid,
  attempts integer NOT NULL DEFAULT 0,
  worker_id text,
  queued_at timestamptz NOT NULL DEFAULT now(),
  started_at timestamptz,
  heartbeat_at timestamptz,
  finished_at timestamptz,
  CONSTRAINT sync_runs_kind_check CHECK (kind IN ('inventory', 'usage')),
  CONSTRAINT sync_runs_trigger_check CHECK (trigger IN ('manual', 'schedule', 'startup')),
  CONSTRAINT sync_runs_status_check CHECK (status IN ('queued', 'running', 'succeeded', 'failed')),
  CONSTRAINT sync_runs_progress_check CHECK (progress IS NULL OR progress BETWEEN 0 AND 100)
);
-- At most one queued-or-running run of each kind, across every server process on the database:
-- the second insert fails, and the API answers "already running".
CREATE UNIQUE INDEX sync_runs_one_active_uq ON sync_runs (kind) WHERE status IN ('queued', 'running');
CREATE INDEX sync_runs_queued_at_idx ON sync_runs (queued_at DESC);
