-- Billing: the reseller's price list with its history and each customer's own prices,
-- a statement per customer, cycle and currency (a draft while the cycle runs, closed by a job when
-- it ends and immutable after), corrections as credits or charges carried to the next statement,
-- the provider's invoices as imported, and what the reconciliation board was told to do about a
-- leak. Money is whole minor units (bigint), never numeric amounts: see src/domain/money.ts.
-- A cycle is named by its month, 'YYYY-MM' (the provider's cycles run a calendar month, UTC).
-- Immutable once applied.

-- The price list: one row per product and date it applies from. Rows are never changed; a new
-- price is a new row, and a row not yet in effect may be withdrawn.
CREATE TABLE billing_prices (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  product_reference_id text NOT NULL,
  currency text NOT NULL CHECK (currency ~ '^[A-Z]{3}$'),
  monthly_minor bigint NOT NULL CHECK (monthly_minor >= 0),
  overage_per_gb_minor bigint NOT NULL CHECK (overage_per_gb_minor >= 0),
  top_up_minor bigint NOT NULL CHECK (top_up_minor >= 0),
  effective_from date NOT NULL,
  note text,
  created_at timestamptz NOT NULL DEFAULT now(),
  created_by uuid REFERENCES users (id) ON DELETE SET NULL,
  UNIQUE (product_reference_id, effective_from)
);

-- A customer's own prices: for one product (or every product when product_reference_id is null),
-- a negotiated price for any of the three figures and/or a discount in basis points (1000 = 10 %),
-- from a date until an optional end (exclusive). A product's row wins over the every-product row.
CREATE TABLE billing_customer_prices (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  customer_id uuid NOT NULL REFERENCES customers (id),
  product_reference_id text,
  effective_from date NOT NULL,
  effective_until date,
  discount_bp integer CHECK (discount_bp BETWEEN 1 AND 10000),
  monthly_minor bigint CHECK (monthly_minor >= 0),
  overage_per_gb_minor bigint CHECK (overage_per_gb_minor >= 0),
  top_up_minor bigint CHECK (top_up_minor >= 0),
  note text,
  created_at timestamptz NOT NULL DEFAULT now(),
  created_by uuid REFERENCES users (id) ON DELETE SET NULL,
  CHECK (discount_bp IS NOT NULL OR monthly_minor IS NOT NULL OR overage_per_gb_minor IS NOT NULL OR top_up_minor IS NOT NULL),
  CHECK (effective_until IS NULL OR effective_until > effective_from)
);
CREATE INDEX billing_customer_prices_customer_idx ON billing_customer_prices (customer_id, effective_from);

-- One row per cycle the billing has worked on: open while its statements are drafts, closed
-- once the job closed them all (after that nothing of the cycle changes).
CREATE TABLE billing_cycles (
  cycle text PRIMARY KEY CHECK (cycle ~ '^[0-9]{4}-(0[1-9]|1[0-2])$'),
  status text NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'closed')),
  refreshed_at timestamptz,
  closed_at timestamptz
);

CREATE SEQUENCE billing_statement_number_seq;

-- A statement: a customer's charges of one cycle in one currency. The customer's name, email,
-- company and address are copied in when it closes, so a closed statement reads as it was sent.
-- content_hash lets a refresh skip the drafts whose figures did not change.
CREATE TABLE billing_statements (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  customer_id uuid NOT NULL REFERENCES customers (id),
  cycle text NOT NULL CHECK (cycle ~ '^[0-9]{4}-(0[1-9]|1[0-2])$'),
  currency text NOT NULL CHECK (currency ~ '^[A-Z]{3}$'),
  status text NOT NULL DEFAULT 'draft' CHECK (status IN ('draft', 'closed')),
  number text UNIQUE,
  service_lines integer NOT NULL DEFAULT 0,
  subtotal_minor bigint NOT NULL DEFAULT 0,
  discount_minor bigint NOT NULL DEFAULT 0,
  adjustment_minor bigint NOT NULL DEFAULT 0,
  total_minor bigint NOT NULL DEFAULT 0,
  content_hash text NOT NULL DEFAULT '',
  customer_name text,
  customer_email text,
  customer_company text,
  customer_address text,
  updated_at timestamptz NOT NULL DEFAULT now(),
  closed_at timestamptz,
  UNIQUE (customer_id, cycle, currency),
  CHECK ((status = 'closed') = (number IS NOT NULL AND closed_at IS NOT NULL))
);
CREATE INDEX billing_statements_cycle_idx ON billing_statements (cycle, status);

-- A statement's lines in order: plan fees (one per product period), overage, top-ups, then the
-- discounts and the adjustments carried onto it. quantity is days of the cycle for a fee (of
-- cycle_days), GB for overage, blocks for top-ups, 1 for the rest.
CREATE TABLE billing_statement_items (
  statement_id uuid NOT NULL REFERENCES billing_statements (id) ON DELETE CASCADE,
  position integer NOT NULL,
  kind text NOT NULL CHECK (kind IN ('plan', 'overage', 'top_up', 'discount', 'adjustment')),
  service_line_number text,
  product_reference_id text,
  description text NOT NULL,
  period_start date,
  period_end date,
  quantity numeric NOT NULL,
  unit_minor bigint,
  amount_minor bigint NOT NULL,
  adjustment_id uuid,
  PRIMARY KEY (statement_id, position)
);
CREATE INDEX billing_statement_items_line_idx ON billing_statement_items (service_line_number) WHERE service_line_number IS NOT NULL;

-- A correction: a credit (negative) or a charge (positive) for a customer, carried onto their
-- next statement in its currency; applied_statement_id is set when that statement closes.
CREATE TABLE billing_adjustments (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  customer_id uuid NOT NULL REFERENCES customers (id),
  currency text NOT NULL CHECK (currency ~ '^[A-Z]{3}$'),
  amount_minor bigint NOT NULL CHECK (amount_minor <> 0),
  reason text NOT NULL,
  source text NOT NULL DEFAULT 'manual' CHECK (source IN ('manual', 'reconciliation')),
  against_statement_id uuid REFERENCES billing_statements (id),
  applied_statement_id uuid REFERENCES billing_statements (id),
  created_at timestamptz NOT NULL DEFAULT now(),
  created_by uuid REFERENCES users (id) ON DELETE SET NULL
);
CREATE INDEX billing_adjustments_pending_idx ON billing_adjustments (customer_id) WHERE applied_statement_id IS NULL;

-- A closed statement never changes: not its row, not its lines. The guard is in the database, so
-- no code path (a refresh racing the close, a hand-written UPDATE) can rewrite what was sent.
CREATE FUNCTION billing_statement_guard() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF OLD.status = 'closed' THEN
    RAISE EXCEPTION 'statement % is closed and cannot change', OLD.id USING ERRCODE = '55000';
  END IF;
  IF TG_OP = 'DELETE' THEN
    RETURN OLD;
  END IF;
  RETURN NEW;
END $$;
CREATE TRIGGER billing_statements_immutable BEFORE UPDATE OR DELETE ON billing_statements
  FOR EACH ROW EXECUTE FUNCTION billing_statement_guard();

CREATE FUNCTION billing_statement_item_guard() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  target uuid;
BEGIN
  IF TG_OP = 'DELETE' THEN target := OLD.statement_id; ELSE target := NEW.statement_id; END IF;
  IF EXISTS (SELECT 1 FROM billing_statements WHERE id = target AND status = 'closed')
     OR (TG_OP = 'UPDATE' AND EXISTS (SELECT 1 FROM billing_statements WHERE id = OLD.statement_id AND status = 'closed')) THEN
    RAISE EXCEPTION 'statement % is closed and its lines cannot change', target USING ERRCODE = '55000';
  END IF;
  IF TG_OP = 'DELETE' THEN
    RETURN OLD;
  END IF;
  RETURN NEW;
END $$;
CREATE TRIGGER billing_statement_items_immutable BEFORE INSERT OR UPDATE OR DELETE ON billing_statement_items
  FOR EACH ROW EXECUTE FUNCTION billing_statement_item_guard();

-- The top-up blocks a line had bought in a cycle, copied from service_lines.data_blocks by each
-- billing refresh that runs within the cycle: the line's own record only says "this cycle", so
-- once a cycle ends only this copy still knows.
CREATE TABLE billing_line_top_ups (
  service_line_number text NOT NULL,
  cycle text NOT NULL,
  one_time_blocks integer NOT NULL DEFAULT 0 CHECK (one_time_blocks >= 0),
  opt_in_blocks integer NOT NULL DEFAULT 0 CHECK (opt_in_blocks >= 0),
  recorded_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (service_line_number, cycle)
);

-- The provider's partial periods of a line (a span of a cycle on one product: the line started,
-- ended or changed plan mid-cycle), fetched for the lines billing_period_checks names.
CREATE TABLE service_line_periods (
  service_line_number text NOT NULL,
  period_start timestamptz NOT NULL,
  period_end timestamptz NOT NULL,
  product_reference_id text NOT NULL,
  fetched_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (service_line_number, period_start),
  CHECK (period_end > period_start)
);

-- Lines whose partial periods are to be fetched: their plan changed (seen by the sync or made in
-- the portal), or they started or ended.
CREATE TABLE billing_period_checks (
  service_line_number text PRIMARY KEY,
  marked_at timestamptz NOT NULL DEFAULT now()
);

CREATE FUNCTION billing_mark_period_check() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO billing_period_checks (service_line_number) VALUES (NEW.service_line_number)
    ON CONFLICT (service_line_number) DO NOTHING;
  RETURN NULL;
END $$;
-- Row triggers with a WHEN clause: the sync's upsert of an unchanged line costs a comparison.
CREATE TRIGGER billing_period_check_update AFTER UPDATE ON service_lines
  FOR EACH ROW
  WHEN (OLD.product_reference_id IS DISTINCT FROM NEW.product_reference_id
        OR OLD.start_date IS DISTINCT FROM NEW.start_date
        OR OLD.end_date IS DISTINCT FROM NEW.end_date)
  EXECUTE FUNCTION billing_mark_period_check();

-- The provider's invoices as imported (an invoice of a complete cycle never changes), with one
-- row per invoice line and service line it names (a line naming several is split evenly, to the
-- minor unit, by allocate()).
CREATE TABLE provider_invoices (
  invoice_id text PRIMARY KEY,
  cycle text NOT NULL CHECK (cycle ~ '^[0-9]{4}-(0[1-9]|1[0-2])$'),
  currency text NOT NULL CHECK (currency ~ '^[A-Z]{3}$'),
  amount_minor bigint NOT NULL,
  invoice_date timestamptz,
  due_date timestamptz,
  status text,
  imported_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX provider_invoices_cycle_idx ON provider_invoices (cycle);

CREATE TABLE provider_invoice_lines (
  invoice_id text NOT NULL REFERENCES provider_invoices (invoice_id) ON DELETE CASCADE,
  position integer NOT NULL,
  product_reference_id text,
  description text,
  service_line_number text,
  quantity numeric,
  unit_price numeric,
  amount_minor bigint NOT NULL,
  period_start timestamptz,
  period_end timestamptz,
  PRIMARY KEY (invoice_id, position)
);
CREATE INDEX provider_invoice_lines_line_idx ON provider_invoice_lines (service_line_number);

-- What an administrator did about a leak the board listed (disputed with the provider, checked,
-- billed, line cancelled): the board shows it as handled, with who and when.
CREATE TABLE billing_leak_resolutions (
  cycle text NOT NULL,
  kind text NOT NULL,
  leak_key text NOT NULL,
  action text NOT NULL,
  note text,
  resolved_at timestamptz NOT NULL DEFAULT now(),
  resolved_by uuid REFERENCES users (id) ON DELETE SET NULL,
  PRIMARY KEY (cycle, kind, leak_key)
);
