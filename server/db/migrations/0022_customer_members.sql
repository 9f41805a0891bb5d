-- Customer organisations with several people. The customers row is the organisation and its
-- original login, which is the organisation's owner; the other people are members, invited by
-- email, each with their own password, MFA and sign-in bookkeeping (the account columns every
-- sign-in account has) and a role. A member limited to some service lines sees only those
-- (service_lines NULL: every line of the organisation). Immutable once applied.

CREATE TABLE customer_members (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  customer_id uuid NOT NULL REFERENCES customers (id) ON DELETE CASCADE,
  role text NOT NULL,
  service_lines text[],
  email text NOT NULL,
  name text NOT NULL,
  password_hash text,
  is_active boolean NOT NULL DEFAULT true,
  mfa_enabled boolean NOT NULL DEFAULT false,
  mfa_secret text,
  mfa_pending_secret text,
  mfa_last_step bigint,
  account_expires_at timestamptz,
  blocked_enabled boolean NOT NULL DEFAULT false,
  blocked_reason text,
  blocked_at timestamptz,
  failed_login_attempts integer NOT NULL DEFAULT 0,
  locked_until timestamptz,
  last_login timestamptz,
  last_ip text,
  password_changed_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  deleted_at timestamptz,
  CONSTRAINT customer_members_role_check CHECK (role IN ('owner', 'manager', 'viewer')),
  CONSTRAINT customer_members_lines_check CHECK (service_lines IS NULL OR cardinality(service_lines) >= 1),
  CONSTRAINT customer_members_email_check CHECK (char_length(email) BETWEEN 3 AND 320 AND position('@' IN email) > 1),
  CONSTRAINT customer_members_name_check CHECK (char_length(btrim(name)) BETWEEN 1 AND 200),
  CONSTRAINT customer_members_failed_login_attempts_check CHECK (failed_login_attempts >= 0),
  CONSTRAINT customer_members_blocked_reason_check CHECK (blocked_reason IS NULL OR char_length(blocked_reason) <= 500)
);
-- The customer sign-in finds one account per email: unique among live members here, and the
-- members service refuses an email a live customer login holds.
CREATE UNIQUE INDEX customer_members_email_live_uq ON customer_members (lower(email)) WHERE deleted_at IS NULL;
CREATE INDEX customer_members_customer_idx ON customer_members (customer_id, created_at);

-- An invitation: a random token mailed to the invitee, stored only as its SHA-256, accepted once
-- before it expires unless revoked. Who invited is an admin user, an API key, the organisation's
-- own login or one of its members.
CREATE TABLE customer_invitations (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  customer_id uuid NOT NULL REFERENCES customers (id) ON DELETE CASCADE,
  email text NOT NULL,
  name text NOT NULL,
  role text NOT NULL,
  service_lines text[],
  token_hash text NOT NULL,
  expires_at timestamptz NOT NULL,
  used_at timestamptz,
  revoked_at timestamptz,
  invited_by_type text NOT NULL,
  invited_by_id uuid,
  member_id uuid REFERENCES customer_members (id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT customer_invitations_role_check CHECK (role IN ('owner', 'manager', 'viewer')),
  CONSTRAINT customer_invitations_lines_check CHECK (service_lines IS NULL OR cardinality(service_lines) >= 1),
  CONSTRAINT customer_invitations_hash_check CHECK (token_hash ~ '^[0-9a-f]{64}$'),
  CONSTRAINT customer_invitations_expiry_check CHECK (expires_at > created_at),
  CONSTRAINT customer_invitations_email_check CHECK (char_length(email) BETWEEN 3 AND 320 AND position('@' IN email) > 1),
  CONSTRAINT customer_invitations_name_check CHECK (char_length(btrim(name)) BETWEEN 1 AND 200),
  CONSTRAINT customer_invitations_inviter_check CHECK (invited_by_type IN ('user', 'api_key', 'customer', 'member', 'system'))
);
CREATE UNIQUE INDEX customer_invitations_hash_uq ON customer_invitations (token_hash);
CREATE INDEX customer_invitations_customer_idx ON customer_invitations (customer_id, created_at DESC);

-- Members' MFA recovery codes: a code belongs to exactly one account of the three kinds.
ALTER TABLE mfa_backup_codes ADD COLUMN member_id uuid REFERENCES customer_members (id) ON DELETE CASCADE;
ALTER TABLE mfa_backup_codes DROP CONSTRAINT mfa_backup_codes_owner_check;
ALTER TABLE mfa_backup_codes ADD CONSTRAINT mfa_backup_codes_owner_check
  CHECK (num_nonnulls(user_id, customer_id, member_id) = 1);
CREATE UNIQUE INDEX mfa_backup_codes_member_uq ON mfa_backup_codes (member_id, code_hash) WHERE member_id IS NOT NULL;

-- A member who forgot their password gets a reset link like any account: a link belongs to exactly
-- one account of the three kinds.
ALTER TABLE password_setup_tokens ADD COLUMN member_id uuid REFERENCES customer_members (id) ON DELETE CASCADE;
ALTER TABLE password_setup_tokens DROP CONSTRAINT password_setup_tokens_owner_check;
ALTER TABLE password_setup_tokens ADD CONSTRAINT password_setup_tokens_owner_check
  CHECK (num_nonnulls(customer_id, user_id, member_id) = 1);
CREATE INDEX password_setup_tokens_member_idx ON password_setup_tokens (member_id, created_at DESC) WHERE member_id IS NOT NULL;
