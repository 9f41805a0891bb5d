-- Collecting the money: a ledger per customer and currency, payments recorded by hand or imported
-- from the bank's statement files, ageing by due date, and dunning (reminders, a final notice, a
-- block of portal access for non-payment, and the unblock once nothing is overdue).
--
-- The ledger is append-only (billing_ledger_guard): a closed statement posts one charge, a payment
-- or credit note or refund posts against the charges, and a mistake is reversed by a new entry,
-- never changed. An entry's amount is what it adds to what the customer owes, so a balance is the
-- sum of the entries. Allocations say which statements an entry paid; a reversal posts the
-- negative of the allocations it takes back, so what is paid on a statement is their sum.
-- Money is whole minor units (bigint): see src/domain/money.ts.
-- Immutable once applied.

ALTER TABLE customers ADD COLUMN payment_terms_days integer NOT NULL DEFAULT 30 CHECK (payment_terms_days BETWEEN 0 AND 365);
-- A promise to pay: dunning holds every step for the customer until this day (inclusive).
ALTER TABLE customers ADD COLUMN promise_to_pay_until date;
ALTER TABLE customers ADD COLUMN promise_note text CHECK (promise_note IS NULL OR char_length(promise_note) <= 500);
-- Set when dunning blocked the customer, so that only such a block is lifted by dunning.
ALTER TABLE customers ADD COLUMN blocked_for_non_payment boolean NOT NULL DEFAULT false;
-- Any other change of the block (an admin unblocks, or blocks for another reason) ends dunning's
-- claim on it, so dunning never lifts a block a person set.
CREATE FUNCTION customers_block_owner() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.blocked_for_non_payment = OLD.blocked_for_non_payment THEN
    NEW.blocked_for_non_payment := false;
  END IF;
  RETURN NEW;
END $$;
CREATE TRIGGER customers_block_owner BEFORE UPDATE ON customers
  FOR EACH ROW
  WHEN (OLD.blocked_enabled IS DISTINCT FROM NEW.blocked_enabled OR OLD.blocked_reason IS DISTINCT FROM NEW.blocked_reason)
  EXECUTE FUNCTION customers_block_owner();

-- Set when the statement closes (the close day plus the customer's terms), like its number.
ALTER TABLE billing_statements ADD COLUMN due_on date;

CREATE TABLE billing_ledger_entries (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  -- Posting order, for reading the history as it happened.
  sequence bigserial UNIQUE,
  customer_id uuid NOT NULL REFERENCES customers (id),
  currency text NOT NULL CHECK (currency ~ '^[A-Z]{3}$'),
  kind text NOT NULL CHECK (kind IN ('charge', 'payment', 'credit_note', 'refund', 'reversal')),
  amount_minor bigint NOT NULL,
  occurred_on date NOT NULL,
  method text CHECK (method IS NULL OR method IN ('bank_transfer', 'card', 'cash', 'cheque', 'direct_debit', 'other')),
  reference text,
  note text,
  statement_id uuid REFERENCES billing_statements (id),
  reverses_id uuid REFERENCES billing_ledger_entries (id),
  bank_line_id uuid,
  created_at timestamptz NOT NULL DEFAULT now(),
  created_by uuid REFERENCES users (id) ON DELETE SET NULL,
  CHECK ((kind = 'charge') = (statement_id IS NOT NULL)),
  CHECK ((kind = 'reversal') = (reverses_id IS NOT NULL)),
  CHECK (kind = 'charge' OR amount_minor <> 0),
  CHECK (kind NOT IN ('payment', 'credit_note') OR amount_minor < 0),
  CHECK (kind <> 'refund' OR amount_minor > 0)
);
-- A statement is charged once; an entry is reversed once.
CREATE UNIQUE INDEX billing_ledger_charge_uq ON billing_ledger_entries (statement_id) WHERE kind = 'charge';
CREATE UNIQUE INDEX billing_ledger_reversal_uq ON billing_ledger_entries (reverses_id) WHERE kind = 'reversal';
CREATE INDEX billing_ledger_customer_idx ON billing_ledger_entries (customer_id, currency, sequence);
CREATE INDEX billing_ledger_kind_idx ON billing_ledger_entries (kind, sequence);

CREATE TABLE billing_allocations (
  id bigserial PRIMARY KEY,
  entry_id uuid NOT NULL REFERENCES billing_ledger_entries (id),
  statement_id uuid NOT NULL REFERENCES billing_statements (id),
  amount_minor bigint NOT NULL CHECK (amount_minor <> 0),
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX billing_allocations_statement_idx ON billing_allocations (statement_id);
CREATE INDEX billing_allocations_entry_idx ON billing_allocations (entry_id);

CREATE FUNCTION billing_ledger_guard() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION '% is append-only: post a new entry instead', TG_TABLE_NAME USING ERRCODE = '55000';
END $$;
CREATE TRIGGER billing_ledger_entries_append_only BEFORE UPDATE OR DELETE ON billing_ledger_entries
  FOR EACH ROW EXECUTE FUNCTION billing_ledger_guard();
CREATE TRIGGER billing_allocations_append_only BEFORE UPDATE OR DELETE ON billing_allocations
  FOR EACH ROW EXECUTE FUNCTION billing_ledger_guard();

-- A bank statement file as imported, and each of its lines. A line is known by its key (the bank's
-- reference, else its content and position in the file): a line seen before is not stored again,
-- so the same file imported twice posts nothing twice.
CREATE TABLE billing_bank_imports (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  file_name text NOT NULL,
  format text NOT NULL CHECK (format IN ('camt053', 'csv')),
  lines integer NOT NULL,
  matched integer NOT NULL,
  unmatched integer NOT NULL,
  duplicates integer NOT NULL,
  skipped integer NOT NULL,
  imported_at timestamptz NOT NULL DEFAULT now(),
  imported_by uuid REFERENCES users (id) ON DELETE SET NULL
);

CREATE TABLE billing_bank_lines (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  import_id uuid NOT NULL REFERENCES billing_bank_imports (id),
  line_key text NOT NULL UNIQUE,
  booked_on date NOT NULL,
  amount_minor bigint NOT NULL CHECK (amount_minor > 0),
  currency text NOT NULL CHECK (currency ~ '^[A-Z]{3}$'),
  payer text,
  remittance text,
  bank_reference text,
  status text NOT NULL CHECK (status IN ('matched', 'unmatched', 'ignored')),
  matched_by text CHECK (matched_by IS NULL OR matched_by IN ('reference', 'amount_and_name', 'manual')),
  customer_id uuid REFERENCES customers (id),
  entry_id uuid REFERENCES billing_ledger_entries (id),
  note text,
  decided_at timestamptz,
  decided_by uuid REFERENCES users (id) ON DELETE SET NULL,
  CHECK ((status = 'matched') = (entry_id IS NOT NULL))
);
CREATE INDEX billing_bank_lines_waiting_idx ON billing_bank_lines (booked_on) WHERE status = 'unmatched';
CREATE INDEX billing_bank_lines_import_idx ON billing_bank_lines (import_id);

-- Dunning may propose ending the lines of a customer it blocked, as automatic actions an admin
-- approves (level 0; cycle_start holds the overdue statement's due date: once per line and statement).
ALTER TABLE automatic_actions DROP CONSTRAINT automatic_actions_rule_kind_check;
ALTER TABLE automatic_actions ADD CONSTRAINT automatic_actions_rule_kind_check CHECK (rule_kind IN ('usage', 'overage_forecast', 'dunning'));

-- The reseller's dunning policy: one row.
CREATE TABLE billing_dunning_policy (
  id boolean PRIMARY KEY DEFAULT true CHECK (id),
  enabled boolean NOT NULL DEFAULT true,
  reminder_days integer[] NOT NULL DEFAULT '{7}',
  final_notice_days integer DEFAULT 21,
  block_days integer DEFAULT 30,
  propose_line_ends boolean NOT NULL DEFAULT false,
  updated_at timestamptz NOT NULL DEFAULT now(),
  updated_by uuid REFERENCES users (id) ON DELETE SET NULL
);
INSERT INTO billing_dunning_policy (id) VALUES (true);

-- Each dunning step taken: per statement for the letters and the block, so a step is taken once
-- (billing_dunning_steps_once_uq) however many processes run the dunning at the same moment; the
-- unblock is keyed on the statement whose block it lifts.
CREATE TABLE billing_dunning_steps (
  id bigserial PRIMARY KEY,
  customer_id uuid NOT NULL REFERENCES customers (id),
  statement_id uuid NOT NULL REFERENCES billing_statements (id),
  step text NOT NULL CHECK (step IN ('reminder_1', 'reminder_2', 'reminder_3', 'final_notice', 'block', 'unblock')),
  days_overdue integer NOT NULL,
  open_minor bigint NOT NULL,
  taken_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX billing_dunning_steps_once_uq ON billing_dunning_steps (statement_id, step);
CREATE INDEX billing_dunning_steps_customer_idx ON billing_dunning_steps (customer_id, taken_at);

-- Statements closed before the ledger existed: due by the customer's terms from their close day,
-- and charged once, so that the balances start from what was billed. (A closed statement's row is
-- guarded against change; the guard stands aside for this one fill of the new column.)
ALTER TABLE billing_statements DISABLE TRIGGER billing_statements_immutable;
UPDATE billing_statements s SET due_on = (s.closed_at AT TIME ZONE 'UTC')::date + c.payment_terms_days
  FROM customers c WHERE c.id = s.customer_id AND s.status = 'closed' AND s.due_on IS NULL;
ALTER TABLE billing_statements ENABLE TRIGGER billing_statements_immutable;
INSERT INTO billing_ledger_entries (customer_id, currency, kind, amount_minor, occurred_on, statement_id, created_at)
  SELECT s.customer_id, s.currency, 'charge', s.total_minor, (s.closed_at AT TIME ZONE 'UTC')::date, s.id, s.closed_at
  FROM billing_statements s WHERE s.status = 'closed' ORDER BY s.closed_at, s.number;
