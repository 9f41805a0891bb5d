-- API keys: the reseller's own systems (ERP, monitoring, accounting) call the API with a key a
-- portal user made for them. The key itself is never stored: only the SHA-256 of the whole key,
-- looked up through its unique index, and a short prefix that lets people tell keys apart. A key
-- acts with its role, never more than its creator holds at the time of the call (the service).
CREATE TABLE api_keys (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  name text NOT NULL,
  prefix text NOT NULL,
  key_hash text NOT NULL,
  -- A role cannot be deleted while a key names it, as while a user holds it.
  role_id uuid NOT NULL REFERENCES roles (id) ON DELETE RESTRICT,
  -- A hard-deleted creator leaves the key (and its name in the audit log) behind; with no creator
  -- it can never act again.
  created_by uuid REFERENCES users (id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz,
  -- Addresses and CIDR ranges the key may be used from; null: any address.
  allowed_ips text[],
  last_used_at timestamptz,
  last_used_ip text,
  revoked_at timestamptz,
  revoked_by uuid REFERENCES users (id) ON DELETE SET NULL
);
CREATE UNIQUE INDEX api_keys_key_hash_uq ON api_keys (key_hash);
-- The audit log names a key's calls by its name: two keys in use never share one.
CREATE UNIQUE INDEX api_keys_name_uq ON api_keys (lower(name)) WHERE revoked_at IS NULL;
CREATE INDEX api_keys_role_idx ON api_keys (role_id);
