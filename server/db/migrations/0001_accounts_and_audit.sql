-- Sign-in accounts (admin-portal users and customers), the audit log, and one-time markers.
-- Immutable once applied: change the schema with a new numbered file.

-- Search pages add trigram indexes in later migrations; the extension is "trusted" on
-- PostgreSQL 13+, so a database owner without superuser can create it.
CREATE EXTENSION IF NOT EXISTS pg_trgm;

CREATE TABLE users (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  email text NOT NULL,
  name text NOT NULL,
  password_hash text,
  role text NOT NULL DEFAULT 'user',
  is_active boolean NOT NULL DEFAULT true,
  mfa_enabled boolean NOT NULL DEFAULT false,
  mfa_secret text,
  account_expires_at timestamptz,
  blocked_enabled boolean NOT NULL DEFAULT false,
  blocked_reason text,
  blocked_at timestamptz,
  failed_login_attempts integer NOT NULL DEFAULT 0,
  locked_until timestamptz,
  last_login timestamptz,
  last_ip text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  deleted_at timestamptz,
  CONSTRAINT users_role_check CHECK (role IN ('admin', 'user')),
  CONSTRAINT users_email_check CHECK (char_length(email) BETWEEN 3 AND 320 AND position('@' IN email) > 1),
  CONSTRAINT users_name_check CHECK (char_length(btrim(name)) BETWEEN 1 AND 200),
  CONSTRAINT users_failed_login_attempts_check CHECK (failed_login_attempts >= 0),
  CONSTRAINT users_blocked_reason_check CHECK (blocked_reason IS NULL OR char_length(blocked_reason) <= 500)
);
-- An email may be reused once the account holding it is soft-deleted.
CREATE UNIQUE INDEX users_email_live_uq ON users (lower(email)) WHERE deleted_at IS NULL;
CREATE INDEX users_created_at_idx ON users (created_at DESC);

CREATE TABLE customers (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  email text NOT NULL,
  name text NOT NULL,
  password_hash text,
  is_active boolean NOT NULL DEFAULT true,
  mfa_enabled boolean NOT NULL DEFAULT false,
  mfa_secret text,
  account_expires_at timestamptz,
  blocked_enabled boolean NOT NULL DEFAULT false,
  blocked_reason text,
  blocked_at timestamptz,
  failed_login_attempts integer NOT NULL DEFAULT 0,
  locked_until timestamptz,
  last_login timestamptz,
  last_ip text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  deleted_at timestamptz,
  company text NOT NULL DEFAULT '',
  phone text,
  address text,
  CONSTRAINT customers_email_check CHECK (char_length(email) BETWEEN 3 AND 320 AND position('@' IN email) > 1),
  CONSTRAINT customers_name_check CHECK (char_length(btrim(name)) BETWEEN 1 AND 200),
  CONSTRAINT customers_company_check CHECK (char_length(company) <= 200),
  CONSTRAINT customers_failed_login_attempts_check CHECK (failed_login_attempts >= 0),
  CONSTRAINT customers_blocked_reason_check CHECK (blocked_reason IS NULL OR char_length(blocked_reason) <= 500)
);
CREATE UNIQUE INDEX customers_email_live_uq ON customers (lower(email)) WHERE deleted_at IS NULL;
CREATE INDEX customers_created_at_idx ON customers (created_at DESC);

CREATE TABLE audit_log (
  id bigserial PRIMARY KEY,
  actor_type text NOT NULL,
  actor_id uuid,
  action text NOT NULL,
  target_type text,
  target_id text,
  before jsonb,
  after jsonb,
  ip text,
  request_id text,
  created_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT audit_log_actor_type_check CHECK (actor_type IN ('user', 'customer', 'system', 'anonymous')),
  -- A user or customer actor is always identified; system and anonymous never are.
  CONSTRAINT audit_log_actor_id_check CHECK ((actor_type IN ('user', 'customer')) = (actor_id IS NOT NULL)),
  CONSTRAINT audit_log_action_check CHECK (char_length(action) BETWEEN 1 AND 100)
);
CREATE INDEX audit_log_created_at_idx ON audit_log (created_at DESC);
CREATE INDEX audit_log_target_idx ON audit_log (target_type, target_id);
CREATE INDEX audit_log_actor_idx ON audit_log (actor_id);

CREATE TABLE app_meta (
  key text PRIMARY KEY,
  value jsonb NOT NULL
);
