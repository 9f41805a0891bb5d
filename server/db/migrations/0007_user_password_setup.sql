-- Portal users get password-setup links too (created without a password, like customers), and
-- every account records when its password last changed, so a session token issued before the
-- change can be refused. Immutable once applied.

-- A link belongs to exactly one account: a customer or a portal user. Hard-deleting a user takes
-- their links with them (the audit log keeps the user's id as text, not as a reference).
ALTER TABLE password_setup_tokens ALTER COLUMN customer_id DROP NOT NULL;
ALTER TABLE password_setup_tokens ADD COLUMN user_id uuid REFERENCES users (id) ON DELETE CASCADE;
ALTER TABLE password_setup_tokens
  ADD CONSTRAINT password_setup_tokens_owner_check CHECK ((customer_id IS NULL) <> (user_id IS NULL));
CREATE INDEX password_setup_tokens_user_idx ON password_setup_tokens (user_id, created_at DESC) WHERE user_id IS NOT NULL;

ALTER TABLE users ADD COLUMN password_changed_at timestamptz;
ALTER TABLE customers ADD COLUMN password_changed_at timestamptz;
