-- Storage settings for the terminal inventory sync at 100,000 terminals. Immutable once applied.
--
-- Measured with `npm run bench:sync` (100,000 terminals, first sync / identical repeat):
-- as 0003 left it, 97 s / 161 s on PGlite and 85 s / 133 s on PostgreSQL; with these three
-- settings, 42 s / 50 s on PGlite and 33 s / 40 s on PostgreSQL (before the sync also stopped
-- marking unchanged rows pending). Targets: under 60 s on PGlite, under 30 s on PostgreSQL.

-- With fastupdate off every terminal row written costs about 0.7 ms: ~70 trigram entries each
-- inserted into the GIN posting tree. With it on, a write appends to the index's pending list and
-- the list is merged in bulk. PGlite has no autovacuum to flush that list, so the inventory sync
-- flushes it itself at the end of each apply (gin_clean_pending_list, in the terminal-inventory
-- repository), and gin_pending_list_limit (4 MB) bounds it in between: searches stay fast.
ALTER INDEX terminals_search_trgm_idx SET (fastupdate = on);

-- Room on each page for the new version of a row, so a sync's status and bookkeeping updates
-- (sync_status, last_synced_at, last_sync_run_id: no indexed column) are HOT updates that write
-- no index entry at all, the trigram index included.
ALTER TABLE terminals SET (fillfactor = 70);

-- Three values, nearly every live row 'synced': the list's sync-status filter gains little from it,
-- while every status flip had to write an entry to it, which also kept those updates from being HOT.
DROP INDEX terminals_sync_status_idx;
