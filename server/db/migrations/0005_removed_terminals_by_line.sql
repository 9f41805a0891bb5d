-- Assigning by service line tells "no longer listed by the provider" from "not in the inventory"
-- by looking for removed terminals on the lines that have no live one. Without an index that
-- read the whole terminals table (tens of milliseconds at 100,000 terminals) whenever a request
-- held a mistyped or retired line. Removed terminals are few and a row enters this index only
-- when a sync removes it, so the sync pays next to nothing for it. Immutable once applied.
CREATE INDEX terminals_removed_line_idx ON terminals (service_line_number) WHERE removed_at IS NOT NULL;
