-- The provider call budget (server/services/provider-call-budget.ts): one per provider account,
-- shared by every server process on the database. Immutable once applied.
--
-- Each call to the provider first records its start here, in a short transaction that holds the
-- account's advisory lock (pg_advisory_xact_lock(720150010, hashtext(account_key))): it counts the
-- starts of the last minute, and starts only when the account's limit, and for a background sync
-- its share of it, allows. Starts are kept an hour (the terminals page charts them), then pruned.
CREATE TABLE provider_call_starts (
  id bigserial PRIMARY KEY,
  -- The provider account: a hash of the API address and the service account's client id.
  account_key text NOT NULL,
  -- 'person': someone waits for the answer; 'sync': a background sync run.
  lane text NOT NULL CHECK (lane IN ('person', 'sync')),
  started_at timestamptz NOT NULL
);
CREATE INDEX provider_call_starts_account_time_idx ON provider_call_starts (account_key, started_at);

-- What the whole account must respect besides the count: a 429's pause, and the people waiting
-- for a slot (background calls hold back until then). A row appears with the first of either.
CREATE TABLE provider_call_budgets (
  account_key text PRIMARY KEY,
  paused_until timestamptz,
  people_waiting_until timestamptz,
  updated_at timestamptz NOT NULL DEFAULT now()
);
