// Telemetry over time (migration 0029): each sync's readings, the hourly and daily roll-ups, the
// outages, the partitions they live in, and the fleet's locations for the map.
//
// A chart reads the table that fits its range, and what the roll-ups do not reach yet (the hour or
// day in progress) is rolled up from the finer table on read, so a chart is never behind the last
// sync. Sums and counts, never averages of averages.
import { sql, type SQL } from 'drizzle-orm';
import { FLEET_MAP_COORDINATE_UNITS, type TelemetryResolution, type TelemetryValues } from '../../../src/domain/telemetry-history';
import { TERMINAL_CONDITIONS, type TerminalCondition } from '../../../src/domain/terminals';
import type { Db } from '../client';
import { affected, rowsOf } from './results';
import { bool, column, int, intOrNull, isoText, str } from './values';

/** One terminal's reading as the sync keeps it; out-of-range values already null. */
export interface HistoryReading extends TelemetryValues {
  userTerminalId: string;
  /** The terminal's last report (ISO), null when it never reported. */
  reportedAt: string | null;
  online: boolean;
  /** On an active line: only then is an offline reading an outage. */
  active: boolean;
  /** A bit per alert of TELEMETRY_ALERTS. */
  alerts: number;
}

/** A point as stored: a reading, or a bucket's averages. */
export interface HistoryPointRow extends TelemetryValues {
  at: string;
  samples: number;
  onlineSamples: number;
  alerts: number;
}

export interface OutageRow {
  startedAt: string;
  endedAt: string | null;
}

export interface MapFilterSql {
  customerId?: string;
  condition?: TerminalCondition;
  accountId?: number;
}

const num = (value: unknown): number | null => (value === null || value === undefined ? null : Number(value));
const day = (at: Date) => at.toISOString().slice(0, 10);

/** The sums and counts of a bucket, from the readings (`r`) or from a finer bucket (`h`). */
const SUMS_OF_READINGS = sql`count(*), count(*) FILTER (WHERE online),
  sum(downlink_mbps), count(downlink_mbps), sum(uplink_mbps), count(uplink_mbps), sum(latency_ms), count(latency_ms),
  sum(ping_drop_rate), count(ping_drop_rate), sum(obstruction_percent), count(obstruction_percent), sum(signal_quality), count(signal_quality),
  bit_or(alerts)`;
const SUMS_OF_BUCKETS = sql`sum(samples), sum(online_samples),
  sum(downlink_sum), sum(downlink_n), sum(uplink_sum), sum(uplink_n), sum(latency_sum), sum(latency_n),
  sum(drop_sum), sum(drop_n), sum(obstruction_sum), sum(obstruction_n), sum(signal_sum), sum(signal_n), bit_or(alerts)`;
const BUCKET_COLUMNS = sql`terminal_key, bucket, samples, online_samples, downlink_sum, downlink_n, uplink_sum, uplink_n, latency_sum, latency_n,
  drop_sum, drop_n, obstruction_sum, obstruction_n, signal_sum, signal_n, alerts`;
/** A bucket row's averages, as the point query selects them. */
const AVERAGES = sql`downlink_sum / nullif(downlink_n, 0) AS down, uplink_sum / nullif(uplink_n, 0) AS up, latency_sum / nullif(latency_n, 0) AS latency,
  drop_sum / nullif(drop_n, 0) AS drop, obstruction_sum / nullif(obstruction_n, 0) AS obstruction, signal_sum / nullif(signal_n, 0) AS signal,
  NULL::integer AS uptime, samples, online_samples, alerts`;

export type TelemetryHistoryRepository = ReturnType<typeof createTelemetryHistoryRepository>;

export function createTelemetryHistoryRepository(db: Db) {
  /** Days whose partitions this process made (or found) already: the writer asks once a day. */
  const ensuredDays = new Set<string>();

  const repository = {
    /** The partitions of the days from `from` to `to` (UTC) and of their months, where missing. */
    async ensurePartitions(from: Date, to: Date, tx: Db = db): Promise<void> {
      const first = day(from);
      const last = day(to);
      if (first === last && ensuredDays.has(first)) return;
      await tx.execute(sql`SELECT telemetry_ensure_partitions(${first}::date, ${last}::date)`);
      for (let at = Date.parse(first); at <= Date.parse(last); at += 86_400_000) ensuredDays.add(day(new Date(at)));
    },

    /** Drops the raw partitions of days before `rawBefore` and the roll-ups' of months over by `rollupBefore`. */
    async dropPartitionsBefore(rawBefore: Date, rollupBefore: Date, tx: Db = db): Promise<string[]> {
      const rows = rowsOf<{ name: unknown }>(
        await tx.execute(sql`SELECT telemetry_drop_partitions_before(${day(rawBefore)}::date, ${day(rollupBefore)}::date) AS name`),
      );
      ensuredDays.clear();
      return rows.map((r) => String(r.name));
    },

    /** Outages that ended before `before` (a small table: rows, not partitions). */
    async deleteOutagesEndedBefore(before: Date, tx: Db = db): Promise<number> {
      return affected(await tx.execute(sql`DELETE FROM telemetry_outages WHERE ended_at < ${before.toISOString()}::timestamptz`));
    },

    /**
     * One sync's readings, read at `at`: the rows, and the outages they open (offline on an active
     * line, none open) and close (online again, or the line no longer active). Terminals the
     * inventory does not hold are skipped.
     */
    async record(readings: readonly HistoryReading[], at: Date, tx: Db = db): Promise<void> {
      if (readings.length === 0) return;
      await repository.ensurePartitions(at, at, tx);
      const readAt = at.toISOString();
      await tx.execute(sql`
        INSERT INTO telemetry_readings (terminal_key, read_at, reported_at, online, downlink_mbps, uplink_mbps, latency_ms, ping_drop_rate,
                                        obstruction_percent, signal_quality, uptime_seconds, alerts)
        SELECT t.telemetry_key, ${readAt}::timestamptz, u.reported::timestamptz, u.online::boolean, u.down::real, u.up::real, u.latency::real,
               u.drop::real, u.obstruction::real, u.signal::real, u.uptime::integer, u.alerts::integer
        FROM unnest(${column(readings, (r) => r.userTerminalId)}::text[], ${column(readings, (r) => r.reportedAt)}::text[],
                    ${column(readings, (r) => r.online)}::text[], ${column(readings, (r) => r.downlinkMbps)}::text[],
                    ${column(readings, (r) => r.uplinkMbps)}::text[], ${column(readings, (r) => r.latencyMs)}::text[],
                    ${column(readings, (r) => r.pingDropRate)}::text[], ${column(readings, (r) => r.obstructionPercent)}::text[],
                    ${column(readings, (r) => r.signalQuality)}::text[], ${column(readings, (r) => r.uptimeSeconds)}::text[],
                    ${column(readings, (r) => r.alerts)}::text[])
          AS u(id, reported, online, down, up, latency, drop, obstruction, signal, uptime, alerts)
        JOIN terminals t ON t.user_terminal_id = u.id
        ON CONFLICT DO NOTHING`);
      // Only what changes an outage travels: a healthy fleet's sync sends two empty arrays.
      const ending = readings.filter((r) => r.online || !r.active);
      const starting = readings.filter((r) => !r.online && r.active);
      if (ending.length > 0) {
        await tx.execute(sql`
          UPDATE telemetry_outages o SET ended_at = ${readAt}::timestamptz
          FROM terminals t
          WHERE t.user_terminal_id = ANY(${column(ending, (r) => r.userTerminalId)}::text[])
            AND o.terminal_key = t.telemetry_key AND o.ended_at IS NULL`);
      }
      if (starting.length > 0) {
        // It began at the last report before it (never after the reading that found it).
        await tx.execute(sql`
          INSERT INTO telemetry_outages (terminal_key, started_at)
          SELECT t.telemetry_key, least(coalesce(u.reported::timestamptz, ${readAt}::timestamptz), ${readAt}::timestamptz)
          FROM unnest(${column(starting, (r) => r.userTerminalId)}::text[], ${column(starting, (r) => r.reportedAt)}::text[]) AS u(id, reported)
          JOIN terminals t ON t.user_terminal_id = u.id
          ON CONFLICT DO NOTHING`);
      }
    },

    /**
     * Rolls up the hours of every complete day since the last roll-up (none before the raw readings
     * kept, each day in its own statement), then every complete day (none before the roll-ups
     * kept). The state row is claimed first, so two processes never roll up the same hours.
     * Answers the hours and days rolled up.
     */
    async rollUp(now: Date, keep: { rawSince: Date; rollupSince: Date }): Promise<{ hours: number; days: number }> {
      return db.transaction(async (tx) => {
        const [state] = rowsOf<{ hourly: unknown; daily: unknown }>(
          await tx.execute(sql`
            SELECT ${isoText(sql`hourly_until`)} AS hourly, ${isoText(sql`daily_until`)} AS daily
            FROM telemetry_rollup_state WHERE id = 1 FOR UPDATE`),
        );
        // Never rolled up: from the first reading kept.
        const first =
          str(state?.hourly) ??
          str(rowsOf<{ first: unknown }>(await tx.execute(sql`SELECT ${isoText(sql`min(read_at)`)} AS first FROM telemetry_readings`))[0]?.first);
        const dayOf = (ms: number) => Math.floor(ms / 86_400_000) * 86_400_000;
        // Hours are rolled up a whole day at once, after it ends, in terminal order: a terminal's 24
        // hours of a day then sit together on a page or two, and a 30-day chart reads some thirty
        // pages instead of 720 (an hour at a time, every terminal's hour shared a page). The day
        // in progress is rolled up on read from the readings, as the hour in progress was.
        const today = dayOf(now.getTime());
        const hourlyFrom = Math.max(
          Math.floor(Date.parse(first ?? now.toISOString()) / 3_600_000) * 3_600_000,
          Math.floor(keep.rawSince.getTime() / 3_600_000) * 3_600_000,
        );
        let hours = 0;
        // A day a statement: after days of downtime, no single statement holds them all.
        for (let from = hourlyFrom; from < today; ) {
          const to = Math.min(today, dayOf(from) + 86_400_000);
          await tx.execute(sql`
            INSERT INTO telemetry_hourly (${BUCKET_COLUMNS})
            SELECT terminal_key, date_trunc('hour', read_at AT TIME ZONE 'UTC') AT TIME ZONE 'UTC', ${SUMS_OF_READINGS}
            FROM telemetry_readings
            WHERE read_at >= ${new Date(from).toISOString()}::timestamptz AND read_at < ${new Date(to).toISOString()}::timestamptz
            GROUP BY 1, 2
            ORDER BY 1, 2
            ON CONFLICT DO NOTHING`);
          hours += (to - from) / 3_600_000;
          from = to;
        }
        const hourlyUntil = Math.max(hourlyFrom, today);
        const completeDay = dayOf(hourlyUntil);
        const dailyFrom = Math.max(dayOf(Date.parse(str(state?.daily) ?? new Date(hourlyFrom).toISOString())), dayOf(keep.rollupSince.getTime()));
        let days = 0;
        if (dailyFrom < completeDay) {
          await repository.ensurePartitions(new Date(dailyFrom), new Date(completeDay), tx);
          await tx.execute(sql`
            INSERT INTO telemetry_daily (${BUCKET_COLUMNS})
            SELECT terminal_key, date_trunc('day', bucket AT TIME ZONE 'UTC') AT TIME ZONE 'UTC', ${SUMS_OF_BUCKETS}
            FROM telemetry_hourly
            WHERE bucket >= ${new Date(dailyFrom).toISOString()}::timestamptz AND bucket < ${new Date(completeDay).toISOString()}::timestamptz
            GROUP BY 1, 2
            ON CONFLICT DO NOTHING`);
          days = (completeDay - dailyFrom) / 86_400_000;
        }
        await tx.execute(sql`
          UPDATE telemetry_rollup_state SET hourly_until = ${new Date(hourlyUntil).toISOString()}::timestamptz,
                 daily_until = ${new Date(Math.max(dailyFrom, completeDay)).toISOString()}::timestamptz
          WHERE id = 1`);
        return { hours, days };
      });
    },

    /** The terminal's key in the history tables; null when the inventory never held it. */
    async keyOf(userTerminalId: string): Promise<number | null> {
      const [row] = rowsOf<{ key: unknown }>(await db.execute(sql`SELECT telemetry_key AS key FROM terminals WHERE user_terminal_id = ${userTerminalId}`));
      return row ? intOrNull(row.key) : null;
    },

    /** The terminal's first kept reading, whichever table still holds it. */
    async firstReadingAt(key: number): Promise<string | null> {
      const [row] = rowsOf<{ first: unknown }>(
        await db.execute(sql`
          SELECT ${isoText(sql`least(
            (SELECT min(bucket) FROM telemetry_daily WHERE terminal_key = ${key}),
            (SELECT min(bucket) FROM telemetry_hourly WHERE terminal_key = ${key}),
            (SELECT min(read_at) FROM telemetry_readings WHERE terminal_key = ${key}))`)} AS first`),
      );
      return str(row?.first);
    },

    /**
     * The points of one terminal from `from` to `to` (a reading at `to` itself included: the
     * chart's end is the sync just taken): each reading (raw), or each bucket's
     * averages (hour, day), the stored roll-ups where they reach and the finer table beyond.
     */
    async points(key: number, resolution: TelemetryResolution, from: Date, to: Date): Promise<HistoryPointRow[]> {
      const f = from.toISOString();
      const t = to.toISOString();
      let query: SQL;
      if (resolution === 'raw') {
        query = sql`
          SELECT read_at AS at, downlink_mbps AS down, uplink_mbps AS up, latency_ms AS latency, ping_drop_rate AS drop,
                 obstruction_percent AS obstruction, signal_quality AS signal, uptime_seconds AS uptime,
                 1 AS samples, CASE WHEN online THEN 1 ELSE 0 END AS online_samples, alerts
          FROM telemetry_readings WHERE terminal_key = ${key} AND read_at >= ${f}::timestamptz AND read_at <= ${t}::timestamptz`;
      } else {
        const unit = resolution === 'hour' ? sql.raw(`'hour'`) : sql.raw(`'day'`);
        const state = sql`(SELECT hourly_until FROM telemetry_rollup_state WHERE id = 1)`;
        const dailyState = sql`(SELECT daily_until FROM telemetry_rollup_state WHERE id = 1)`;
        // Readings past the hourly roll-up, summed as a roll-up would.
        const recent = sql`
          SELECT terminal_key, date_trunc(${unit}, read_at AT TIME ZONE 'UTC') AT TIME ZONE 'UTC' AS bucket, ${SUMS_OF_READINGS}
          FROM telemetry_readings
          WHERE terminal_key = ${key} AND read_at >= greatest(${f}::timestamptz, coalesce(${state}, '-infinity'::timestamptz)) AND read_at <= ${t}::timestamptz
          GROUP BY 1, 2`;
        const rolled =
          resolution === 'hour'
            ? sql`
              SELECT ${BUCKET_COLUMNS} FROM telemetry_hourly
              WHERE terminal_key = ${key} AND bucket >= ${f}::timestamptz AND bucket < least(${t}::timestamptz, coalesce(${state}, '-infinity'::timestamptz))`
            : sql`
              SELECT ${BUCKET_COLUMNS} FROM telemetry_daily
              WHERE terminal_key = ${key} AND bucket >= ${f}::timestamptz AND bucket < least(${t}::timestamptz, coalesce(${dailyState}, '-infinity'::timestamptz))
              UNION ALL
              SELECT terminal_key, date_trunc('day', bucket AT TIME ZONE 'UTC') AT TIME ZONE 'UTC', ${SUMS_OF_BUCKETS} FROM telemetry_hourly
              WHERE terminal_key = ${key} AND bucket >= greatest(${f}::timestamptz, coalesce(${dailyState}, '-infinity'::timestamptz))
                AND bucket < least(${t}::timestamptz, coalesce(${state}, '-infinity'::timestamptz))
              GROUP BY 1, 2`;
        // A bucket split between the roll-up and the readings past it is summed once more.
        query = sql`
          SELECT bucket AS at, ${AVERAGES} FROM (
            SELECT terminal_key, bucket, sum(samples) AS samples, sum(online_samples) AS online_samples,
                   sum(downlink_sum) AS downlink_sum, sum(downlink_n) AS downlink_n, sum(uplink_sum) AS uplink_sum, sum(uplink_n) AS uplink_n,
                   sum(latency_sum) AS latency_sum, sum(latency_n) AS latency_n, sum(drop_sum) AS drop_sum, sum(drop_n) AS drop_n,
                   sum(obstruction_sum) AS obstruction_sum, sum(obstruction_n) AS obstruction_n, sum(signal_sum) AS signal_sum,
                   sum(signal_n) AS signal_n, bit_or(alerts) AS alerts
            FROM (${rolled} UNION ALL ${recent}) AS parts (${BUCKET_COLUMNS})
            GROUP BY terminal_key, bucket
          ) AS buckets`;
      }
      const rows = rowsOf<Record<string, unknown>>(await db.execute(sql`SELECT ${isoText(sql`at`)} AS at_text, q.* FROM (${query}) AS q ORDER BY at`));
      return rows.map((r) => ({
        at: String(r.at_text),
        downlinkMbps: num(r.down),
        uplinkMbps: num(r.up),
        latencyMs: num(r.latency),
        pingDropRate: num(r.drop),
        obstructionPercent: num(r.obstruction),
        signalQuality: num(r.signal),
        uptimeSeconds: num(r.uptime),
        samples: int(r.samples),
        onlineSamples: int(r.online_samples),
        alerts: int(r.alerts),
      }));
    },

    /** The terminal's outages that overlap `from`–`to`, oldest first. */
    async outages(key: number, from: Date, to: Date): Promise<OutageRow[]> {
      const rows = rowsOf<{ started: unknown; ended: unknown }>(
        await db.execute(sql`
          SELECT ${isoText(sql`started_at`)} AS started, ${isoText(sql`ended_at`)} AS ended FROM telemetry_outages
          WHERE terminal_key = ${key} AND started_at < ${to.toISOString()}::timestamptz
            AND (ended_at IS NULL OR ended_at > ${from.toISOString()}::timestamptz)
          ORDER BY started_at`),
      );
      return rows.map((r) => ({ startedAt: String(r.started), endedAt: str(r.ended) }));
    },

    /** Every live terminal the filter matches, with its location and condition, in service line order. */
    /**
     * What the fleet map's answer is made of, as one value that changes with any committed change
     * to the terminals: their count and a sum of their rows' versions (xmin: a write gives its row
     * a new one). Read in the reader's own snapshot, so a write that commits later is never taken
     * as seen. The sum is of age(xmin) less age() of a fixed id, modulo 2^32: that is the sum of
     * the xmins (negated) whatever the current transaction id age() measures from, and several
     * times cheaper than turning each xmin into a number through its text.
     */
    async inventoryVersion(): Promise<string> {
      const [row] = rowsOf<{ version: unknown }>(
        await db.execute(sql`
          SELECT count(*)::text || ':' || ((coalesce(sum(age(xmin)::bigint), 0) - count(*) * age('3'::xid)::bigint) % 4294967296 + 4294967296) % 4294967296 AS version
          FROM terminals`),
      );
      return String(row?.version);
    },

    /**
     * The fleet map's answer (FleetMapWire) as JSON text, built where the rows are: a whole fleet is
     * 100,000 terminals, and turning them into row objects and back into JSON costs the server
     * several times what the database takes to aggregate them into four columns. The place rule is
     * isPlaceable's: both coordinates in range and not 0,0 (NaN and infinities fall outside every
     * range); coordinates in ten-thousandths of a degree; the condition an index into TERMINAL_CONDITIONS.
     * The unlocated are listed by service line; the located come in the table's order (a map has none).
     */
    async mapJson(filter: MapFilterSql, generatedAt: Date, unlocatedListed: number): Promise<string> {
      const where = [sql`removed_at IS NULL`];
      if (filter.customerId) where.push(sql`assigned_customer_id = ${filter.customerId}::uuid`);
      if (filter.condition) where.push(sql`condition = ${filter.condition}`);
      if (filter.accountId !== undefined) where.push(sql`account_id = ${filter.accountId}`);
      const conditionIndex = sql`CASE condition ${sql.join(TERMINAL_CONDITIONS.map((c, i) => sql`WHEN ${c} THEN ${sql.raw(String(i))}`), sql` `)} ELSE -1 END`;
      const placeable = sql`(latitude BETWEEN -90 AND 90 AND longitude BETWEEN -180 AND 180 AND NOT (latitude = 0 AND longitude = 0)) IS TRUE`;
      // One pass over the terminals for the located columns: the numbers are whole (a float8's text
      // costs the database five times an integer's) and joined as text, the ids through json_agg,
      // which escapes them. The unlocated listed are the first by service line.
      const units = sql.raw(String(FLEET_MAP_COORDINATE_UNITS));
      const [row] = rowsOf<Record<string, unknown>>(
        await db.execute(sql`
          WITH located AS (
            SELECT json_agg(user_terminal_id) AS ids,
                   string_agg(round(latitude * ${units})::int::text, ',') AS latitudes,
                   string_agg(round(longitude * ${units})::int::text, ',') AS longitudes,
                   string_agg(${conditionIndex}::text, ',') AS conditions
            FROM terminals WHERE ${sql.join(where, sql` AND `)} AND ${placeable}
          ), unlocated AS (
            SELECT count(*) AS total,
                   json_agg(json_build_object('userTerminalId', user_terminal_id, 'nickname', nickname, 'serviceLineNumber', service_line_number, 'condition', condition))
                     FILTER (WHERE listed) AS terminals
            FROM (SELECT user_terminal_id, nickname, service_line_number, condition,
                         row_number() OVER (ORDER BY service_line_number NULLS LAST, user_terminal_id) <= ${unlocatedListed} AS listed
                  FROM terminals WHERE ${sql.join(where, sql` AND `)} AND NOT ${placeable}) u
          )
          SELECT l.ids::text AS ids, l.latitudes, l.longitudes, l.conditions, u.total::int AS total, u.terminals::text AS terminals
          FROM located l, unlocated u`),
      );
      // The pieces are joined here: in SQL each || copies the megabytes joined so far.
      const list = (value: unknown) => (value === null || value === undefined ? '[]' : `[${String(value)}]`);
      const json = (value: unknown) => (value === null || value === undefined ? '[]' : String(value));
      return (
        `{"generatedAt":${JSON.stringify(generatedAt.toISOString())},"located":{"userTerminalIds":${json(row?.ids)},"latitudesE4":${list(row?.latitudes)},` +
        `"longitudesE4":${list(row?.longitudes)},"conditions":${list(row?.conditions)}},"unlocated":{"total":${int(row?.total)},"terminals":${json(row?.terminals)}}}`
      );
    },

    /** What the history tables hold on disk, per table (partitions and indexes included): the storage the README states. */
    async storage(): Promise<{ table: string; bytes: number; rows: number }[]> {
      const rows = rowsOf<{ parent: unknown; bytes: unknown; rows: unknown }>(
        await db.execute(sql`
          SELECT p.relname AS parent, coalesce(sum(pg_total_relation_size(c.oid)), 0)::bigint AS bytes, coalesce(sum(c.reltuples), 0)::bigint AS rows
          FROM pg_class p LEFT JOIN pg_inherits i ON i.inhparent = p.oid LEFT JOIN pg_class c ON c.oid = i.inhrelid
          WHERE p.relname IN ('telemetry_readings', 'telemetry_hourly', 'telemetry_daily')
          GROUP BY p.relname ORDER BY p.relname`),
      );
      return rows.map((r) => ({ table: String(r.parent), bytes: int(r.bytes), rows: Math.max(0, int(r.rows)) }));
    },

    /** Whether the outage for the terminal is open (a test's and a bench's question). */
    async hasOpenOutage(key: number): Promise<boolean> {
      const [row] = rowsOf<{ open: unknown }>(
        await db.execute(sql`SELECT EXISTS (SELECT 1 FROM telemetry_outages WHERE terminal_key = ${key} AND ended_at IS NULL) AS open`),
      );
      return bool(row?.open);
    },
  };
  return repository;
}
