// The job queue of the releases on pg-boss 10: schema `pgboss`, pg-boss's schema version 24.
// pg-boss 12 cannot migrate it in place (its oldest migration starts from version 25, the
// partitioned rewrite of pg-boss 11), so the current queue lives in a schema of its own and what
// waits in the old one is moved across:
// - a job waiting there (created, or retry) is deleted there and inserted into the current queue
//   in one statement, with its id, payload, start time, attempts and time limits; rows locked by
//   an old process's fetch are skipped (SKIP LOCKED), so a job runs on one side only;
// - schedules are copied where the current queue has none of that name.
// Active jobs stay: they belong to a process of the previous release that is still running them,
// or, if it died, to the sync runs and bulk actions whose own tables say what to resume.
import { sql } from 'drizzle-orm';
import type { Db } from '../client';
import { rowsOf } from './results';

export const LEGACY_QUEUE_SCHEMA = 'pgboss';
/** The only layout this knows: pg-boss 10's. */
export const LEGACY_QUEUE_VERSION = 24;

export interface MovedJob {
  id: string;
  name: string;
}

export interface LegacyJobQueueRepository {
  /** The old queue's schema version, or null when there is none in the database. */
  version(): Promise<number | null>;
  /** Moves the jobs of `queues` waiting in the old queue into the queue in schema `target`. */
  moveWaiting(target: string, queues: readonly string[]): Promise<MovedJob[]>;
  /** Copies the old queue's schedules of `queues` that `target` lacks; answers how many. */
  copySchedules(target: string, queues: readonly string[]): Promise<number>;
}

/** A text[] parameter: queue names are fixed identifiers without commas, quotes or braces. */
const textArray = (values: readonly string[]) => `{${values.join(',')}}`;

export function createLegacyJobQueueRepository(db: Db): LegacyJobQueueRepository {
  const legacy = sql.identifier(LEGACY_QUEUE_SCHEMA);
  return {
    async version() {
      const [versionTable, jobTable] = [`${LEGACY_QUEUE_SCHEMA}.version`, `${LEGACY_QUEUE_SCHEMA}.job`];
      const found = rowsOf<{ present: boolean }>(
        await db.execute(sql`SELECT to_regclass(${versionTable}) IS NOT NULL AND to_regclass(${jobTable}) IS NOT NULL AS present`),
      );
      if (!found[0]?.present) return null;
      const [row] = rowsOf<{ version: number }>(await db.execute(sql`SELECT version::int AS version FROM ${legacy}.version`));
      return row?.version ?? null;
    },

    async moveWaiting(target, queues) {
      const current = sql.identifier(target);
      const moved = await db.execute(sql`
        WITH waiting AS (
          SELECT id FROM ${legacy}.job
          WHERE state IN ('created', 'retry') AND name = ANY(${textArray(queues)}::text[])
            AND name IN (SELECT name FROM ${current}.queue)
          FOR UPDATE SKIP LOCKED
        ), taken AS (
          DELETE FROM ${legacy}.job AS old USING waiting WHERE old.id = waiting.id
          RETURNING old.*
        )
        INSERT INTO ${current}.job (
          id, name, data, priority, start_after, created_on, singleton_key, singleton_on,
          expire_seconds, deletion_seconds, keep_until, retry_limit, retry_count, retry_delay,
          retry_backoff, policy
        )
        SELECT t.id, t.name, t.data, t.priority, t.start_after, t.created_on, t.singleton_key, t.singleton_on,
          GREATEST(1, EXTRACT(EPOCH FROM t.expire_in))::int, q.deletion_seconds, t.keep_until, t.retry_limit,
          t.retry_count, t.retry_delay, t.retry_backoff, q.policy
        FROM taken t JOIN ${current}.queue q ON q.name = t.name
        ON CONFLICT DO NOTHING
        RETURNING id::text AS id, name`);
      return rowsOf<MovedJob>(moved);
    },

    async copySchedules(target, queues) {
      const current = sql.identifier(target);
      // pg-boss 10 kept the time zone in the options too; pg-boss 12 reads it from its column only.
      const copied = await db.execute(sql`
        INSERT INTO ${current}.schedule (name, cron, timezone, data, options)
        SELECT s.name, s.cron, s.timezone, s.data, s.options - 'tz'
        FROM ${legacy}.schedule s JOIN ${current}.queue q ON q.name = s.name
        WHERE s.name = ANY(${textArray(queues)}::text[])
        ON CONFLICT DO NOTHING
        RETURNING name`);
      return rowsOf<{ name: string }>(copied).length;
    },
  };
}
