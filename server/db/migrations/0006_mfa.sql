-- Real TOTP multi-factor authentication. mfa_secret (since 0001) holds the live secret encrypted
-- by the server (`v1:<iv>:<tag>:<ciphertext>`); the secret shown at set-up waits, encrypted too, in
-- mfa_pending_secret until its first code is verified. mfa_last_step is the last TOTP time step
-- accepted, so a code cannot be used twice. Immutable once applied.
ALTER TABLE users ADD COLUMN mfa_pending_secret text;
ALTER TABLE users ADD COLUMN mfa_last_step bigint;
ALTER TABLE customers ADD COLUMN mfa_pending_secret text;
ALTER TABLE customers ADD COLUMN mfa_last_step bigint;

-- Single-use recovery codes of one account, a portal user or a customer (never both), kept only
-- as a keyed digest. Hard-deleting the account takes its codes with it.
CREATE TABLE mfa_backup_codes (
  id bigserial PRIMARY KEY,
  user_id uuid REFERENCES users (id) ON DELETE CASCADE,
  customer_id uuid REFERENCES customers (id) ON DELETE CASCADE,
  code_hash text NOT NULL,
  used_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT mfa_backup_codes_owner_check CHECK ((user_id IS NULL) <> (customer_id IS NULL))
);
CREATE UNIQUE INDEX mfa_backup_codes_user_uq ON mfa_backup_codes (user_id, code_hash) WHERE user_id IS NOT NULL;
CREATE UNIQUE INDEX mfa_backup_codes_customer_uq ON mfa_backup_codes (customer_id, code_hash) WHERE customer_id IS NOT NULL;
