-- Telemetry over time: every reading a sync takes of a terminal, kept raw for 14 days, rolled up
-- by the hour and by the day for 13 months, and the outages the readings show (src/domain/
-- telemetry-history.ts states the rules).
--
-- The three tables are partitioned by time (declarative partitioning, on PGlite as on PostgreSQL):
-- the raw readings by day, the roll-ups by month. Retention drops whole partitions, never deletes
-- rows, so keeping 14 days of 100,000 terminals read every 15 minutes costs no vacuum.
-- Partitions are made ahead by telemetry_ensure_partitions (the writer and the maintenance tick
-- call it) and dropped by telemetry_drop_partitions_before.
--
-- A terminal is a small integer key in these tables (terminals.telemetry_key), not its 26-character
-- id: a quarter of each raw row and of its index entry.
-- Immutable once applied.

ALTER TABLE terminals ADD COLUMN telemetry_key integer GENERATED ALWAYS AS IDENTITY;
ALTER TABLE terminals ADD CONSTRAINT terminals_telemetry_key_unique UNIQUE (telemetry_key);

-- One row per terminal per reading. read_at is when the sync read it; reported_at the terminal's
-- own last report (older than a minute: it was offline). Values outside their range are null.
-- alerts: a bit per alert of TELEMETRY_ALERTS (src/domain/telemetry-history.ts).
CREATE TABLE telemetry_readings (
  terminal_key integer NOT NULL,
  read_at timestamptz NOT NULL,
  reported_at timestamptz,
  online boolean NOT NULL,
  downlink_mbps real,
  uplink_mbps real,
  latency_ms real,
  ping_drop_rate real,
  obstruction_percent real,
  signal_quality real,
  uptime_seconds integer,
  alerts integer NOT NULL DEFAULT 0,
  PRIMARY KEY (terminal_key, read_at)
) PARTITION BY RANGE (read_at);
-- The roll-up reads an hour of every terminal: a block range index on the time, tiny because
-- readings arrive in time order, keeps it from scanning the whole day's partition.
CREATE INDEX telemetry_readings_read_at_idx ON telemetry_readings USING brin (read_at);

-- A bucket's sums and counts, so that averages of averages are never taken: an hour's average is
-- its sum over its count, a day's the sum of its hours' sums over the sum of their counts. A
-- count per value, as a value may be null on one reading and known on the next.
CREATE TABLE telemetry_hourly (
  terminal_key integer NOT NULL,
  bucket timestamptz NOT NULL,
  samples smallint NOT NULL,
  online_samples smallint NOT NULL,
  downlink_sum real, downlink_n smallint NOT NULL,
  uplink_sum real, uplink_n smallint NOT NULL,
  latency_sum real, latency_n smallint NOT NULL,
  drop_sum real, drop_n smallint NOT NULL,
  obstruction_sum real, obstruction_n smallint NOT NULL,
  signal_sum real, signal_n smallint NOT NULL,
  alerts integer NOT NULL,
  PRIMARY KEY (terminal_key, bucket)
) PARTITION BY RANGE (bucket);

CREATE TABLE telemetry_daily (
  terminal_key integer NOT NULL,
  bucket timestamptz NOT NULL,
  samples integer NOT NULL,
  online_samples integer NOT NULL,
  downlink_sum real, downlink_n integer NOT NULL,
  uplink_sum real, uplink_n integer NOT NULL,
  latency_sum real, latency_n integer NOT NULL,
  drop_sum real, drop_n integer NOT NULL,
  obstruction_sum real, obstruction_n integer NOT NULL,
  signal_sum real, signal_n integer NOT NULL,
  alerts integer NOT NULL,
  PRIMARY KEY (terminal_key, bucket)
) PARTITION BY RANGE (bucket);

-- How far the roll-ups reach: every complete hour before hourly_until is in telemetry_hourly,
-- every complete day before daily_until in telemetry_daily. Readings after them are rolled up on
-- read, so a chart is never an hour behind. One row.
CREATE TABLE telemetry_rollup_state (
  id integer PRIMARY KEY DEFAULT 1 CHECK (id = 1),
  hourly_until timestamptz,
  daily_until timestamptz
);
INSERT INTO telemetry_rollup_state (id) VALUES (1);

-- An outage: a terminal on an active line found offline. It starts at the terminal's last report
-- before it and ends at the first reading that finds it online again (or its line no longer
-- active); ended_at is null while it lasts. At most one open per terminal.
CREATE TABLE telemetry_outages (
  terminal_key integer NOT NULL,
  started_at timestamptz NOT NULL,
  ended_at timestamptz,
  PRIMARY KEY (terminal_key, started_at)
);
CREATE UNIQUE INDEX telemetry_outages_open_idx ON telemetry_outages (terminal_key) WHERE ended_at IS NULL;
-- The fleet's outages of a period (which sites lost signal in the storm).
CREATE INDEX telemetry_outages_started_idx ON telemetry_outages (started_at);

-- The day partitions of the raw readings from from_day to to_day, and the month partitions of the
-- roll-ups those days fall in, where missing. Days are UTC. Two writers may ask at once: the
-- second one's duplicate is no error.
CREATE FUNCTION telemetry_ensure_partitions(from_day date, to_day date) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  d date;
  m date;
BEGIN
  FOR d IN SELECT generate_series(from_day, to_day, interval '1 day')::date LOOP
    BEGIN
      EXECUTE format('CREATE TABLE IF NOT EXISTS %I PARTITION OF telemetry_readings FOR VALUES FROM (%L) TO (%L)',
        'telemetry_readings_' || to_char(d, 'YYYYMMDD'), d::timestamp AT TIME ZONE 'UTC', (d + 1)::timestamp AT TIME ZONE 'UTC');
    EXCEPTION WHEN duplicate_table OR unique_violation THEN NULL;
    END;
  END LOOP;
  FOR m IN SELECT generate_series(date_trunc('month', from_day), date_trunc('month', to_day), interval '1 month')::date LOOP
    BEGIN
      EXECUTE format('CREATE TABLE IF NOT EXISTS %I PARTITION OF telemetry_hourly FOR VALUES FROM (%L) TO (%L)',
        'telemetry_hourly_' || to_char(m, 'YYYYMM'), m::timestamp AT TIME ZONE 'UTC', (m + interval '1 month')::timestamp AT TIME ZONE 'UTC');
      EXECUTE format('CREATE TABLE IF NOT EXISTS %I PARTITION OF telemetry_daily FOR VALUES FROM (%L) TO (%L)',
        'telemetry_daily_' || to_char(m, 'YYYYMM'), m::timestamp AT TIME ZONE 'UTC', (m + interval '1 month')::timestamp AT TIME ZONE 'UTC');
    EXCEPTION WHEN duplicate_table OR unique_violation THEN NULL;
    END;
  END LOOP;
END $$;

-- Drops the raw partitions of days before raw_before and the roll-up partitions of months that end
-- on or before rollup_before; answers the names dropped.
CREATE FUNCTION telemetry_drop_partitions_before(raw_before date, rollup_before date) RETURNS SETOF text LANGUAGE plpgsql AS $$
DECLARE
  part record;
BEGIN
  FOR part IN
    SELECT c.relname AS name, p.relname AS parent
    FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid JOIN pg_class p ON p.oid = i.inhparent
    WHERE p.relname IN ('telemetry_readings', 'telemetry_hourly', 'telemetry_daily')
  LOOP
    IF (part.parent = 'telemetry_readings' AND to_date(right(part.name, 8), 'YYYYMMDD') < raw_before)
       OR (part.parent <> 'telemetry_readings' AND (to_date(right(part.name, 6), 'YYYYMM') + interval '1 month')::date <= rollup_before) THEN
      EXECUTE format('DROP TABLE %I', part.name);
      RETURN NEXT part.name;
    END IF;
  END LOOP;
END $$;
