-- The audit log page filters by action, newest first. The created_at index alone would
-- walk the whole log past every sign-in and refresh to find a rare action; with this one a filter
-- of a few actions reads only their entries, in order. Immutable once applied.
CREATE INDEX audit_log_action_created_at_idx ON audit_log (action, created_at DESC, id DESC);
