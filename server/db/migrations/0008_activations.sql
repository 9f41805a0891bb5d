-- Activations: a kit taken from the box to an active line through the provider's steps (add the
-- terminal to the account, create the address when it is new, create the line, attach, name it),
-- recorded step by step so a failure part-way can be resumed from where it stopped and a retry
-- never makes a second line. Immutable once applied.
CREATE TABLE activations (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  -- As entered (kit serial, dish serial or user terminal id), and upper-cased for the rule below.
  device_id text NOT NULL,
  device_key text NOT NULL,
  customer_id uuid REFERENCES customers (id),
  -- The account's address chosen, or (new_address) the one to create with address_key in its
  -- metadata, by which a create whose answer was lost is found again.
  address_reference_id text,
  new_address jsonb,
  address_key text NOT NULL,
  product_reference_id text NOT NULL,
  nickname text,
  status text NOT NULL CHECK (status IN ('running', 'failed', 'completed')),
  -- Step name → ISO time it was done.
  steps jsonb NOT NULL DEFAULT '{}'::jsonb,
  user_terminal_id text,
  service_line_number text,
  error text,
  created_by uuid,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);

-- One unfinished activation per kit: a second admin activating the same kit gets a conflict, and
-- a failed one is resumed rather than started again.
CREATE UNIQUE INDEX activations_device_open_uq ON activations (device_key) WHERE status <> 'completed';
CREATE INDEX activations_created_idx ON activations (created_at DESC);
