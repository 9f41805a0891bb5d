-- Provider writes that change money or service (a top-up, a plan change, priority data, recurring
-- blocks, a deactivation), each recorded as an intent before it is sent. An answer can be lost
-- with the write made: a timeout, a dropped connection, or the server dying between the
-- provider's acceptance and our own record of it. An intent left 'pending' by an attempt is looked
-- up at the provider (what the line shows now against what it showed before, `evidence`) before
-- anything is sent again: by the next attempt with the same key (an approval taken again once its
-- claim expired), and by every server start for the rest. `key` names what the write is for, once:
-- a customer request's approval, or one person's click.
-- Immutable once applied.

CREATE TABLE provider_intents (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  key text NOT NULL UNIQUE,
  operation text NOT NULL CHECK (operation IN ('top_up', 'plan_change', 'priority_data', 'recurring_blocks', 'deactivate')),
  service_line_number text NOT NULL,
  -- What is sent, and what the line showed before it (how a lookup tells whether it was done).
  payload jsonb NOT NULL,
  evidence jsonb NOT NULL,
  -- pending: recorded, perhaps sent, outcome unknown; succeeded: the provider made it (answered,
  -- or found by a lookup); failed: the provider refused it, or a lookup found it not made;
  -- uncertain: a lookup could not tell (the line's cycle turned over): a person checks the line.
  status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'succeeded', 'failed', 'uncertain')),
  attempts integer NOT NULL DEFAULT 0,
  outcome text,
  created_at timestamptz NOT NULL DEFAULT now(),
  sent_at timestamptz,
  settled_at timestamptz
);

-- What a server start looks up.
CREATE INDEX provider_intents_pending_idx ON provider_intents (created_at) WHERE status = 'pending';
