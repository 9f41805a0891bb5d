-- Customer management: trigram search over the customers list, single-use password-setup links,
-- and the outbox every email is recorded in. Immutable once applied.

-- Case-insensitive substring search over name, email and company: one lower-cased copy of the
-- three, kept by PostgreSQL (a stored generated column), with one trigram index. Measured at
-- 100,000 customers (bench/customers-search.ts): a search that scans every row, such as a
-- one- or two-letter term the trigram index cannot serve, costs a sixth of evaluating lower() on
-- three columns per row, and indexed searches half. The separator (U+001F) keeps a term from
-- matching across two fields; the search strips control characters from terms.
-- fastupdate off: inserts are rare admin actions, and the embedded database has no autovacuum
-- to flush GIN's pending list, which every search would otherwise read through.
ALTER TABLE customers
  ADD COLUMN search_text text NOT NULL
  GENERATED ALWAYS AS (lower(name) || chr(31) || lower(email) || chr(31) || lower(company)) STORED;
CREATE INDEX customers_search_trgm_idx ON customers USING gin (search_text gin_trgm_ops) WITH (fastupdate = off);
-- Newest first over the live rows, with the id as tie-breaker so pages never overlap.
CREATE INDEX customers_live_created_idx ON customers (created_at DESC, id DESC) WHERE deleted_at IS NULL;

-- A link holds a random token; only its SHA-256 (hex) is stored. A token is used at most once
-- (used_at), and issuing a new link revokes the older unused ones (revoked_at).
CREATE TABLE password_setup_tokens (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  customer_id uuid NOT NULL REFERENCES customers (id),
  token_hash text NOT NULL,
  expires_at timestamptz NOT NULL,
  used_at timestamptz,
  revoked_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT password_setup_tokens_hash_check CHECK (token_hash ~ '^[0-9a-f]{64}$'),
  CONSTRAINT password_setup_tokens_expiry_check CHECK (expires_at > created_at)
);
CREATE UNIQUE INDEX password_setup_tokens_hash_uq ON password_setup_tokens (token_hash);
CREATE INDEX password_setup_tokens_customer_idx ON password_setup_tokens (customer_id, created_at DESC);

-- Every email the server composes, whether or not an SMTP server is configured: what was sent,
-- when it left (sent_at) or why it did not (error).
CREATE TABLE email_outbox (
  id bigserial PRIMARY KEY,
  recipient text NOT NULL,
  subject text NOT NULL,
  body_text text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  sent_at timestamptz,
  error text,
  CONSTRAINT email_outbox_recipient_check CHECK (char_length(recipient) BETWEEN 3 AND 320),
  CONSTRAINT email_outbox_subject_check CHECK (char_length(subject) BETWEEN 1 AND 998)
);
CREATE INDEX email_outbox_recipient_idx ON email_outbox (lower(recipient), created_at DESC);
CREATE INDEX email_outbox_created_at_idx ON email_outbox (created_at DESC);
