// The pg-boss lifecycle, typed by the contracts in ./contracts.ts. The jobs live in the same
// database as everything else, in schema `job_queue` (JOB_QUEUE_SCHEMA):
// - PostgreSQL: pg-boss uses the app's pool, so several server processes share one queue and
//   pg-boss's own locking (SKIP LOCKED, advisory locks) hands each job to one of them.
// - PGlite: one connection and no pool, so pg-boss gets a `db.executeSql` adapter (STACK-FACTS):
//   parameterless SQL (often several statements, BEGIN … COMMIT) through exec(), the rows of all
//   statements flattened, and a ROLLBACK after an error so the one connection is never left in an
//   aborted transaction; parameterised SQL through query(). One process means one worker per
//   queue, so claims are serialised without relying on SKIP LOCKED.
// A database written by a release on pg-boss 10 keeps that queue in schema `pgboss`, which pg-boss
// 12 cannot migrate: start() and every tick move what waits there into this queue
// (db/repositories/legacy-job-queue.ts).
import type { PGlite } from '@electric-sql/pglite';
import type { FastifyBaseLogger } from 'fastify';
import type pg from 'pg';
import { PgBoss, type Db } from 'pg-boss';
import { PGLITE_DEFAULT_PARSERS, type Database } from '../db/client';
import { createLegacyJobQueueRepository, LEGACY_QUEUE_SCHEMA, LEGACY_QUEUE_VERSION } from '../db/repositories/legacy-job-queue';
import { QUEUES, type JobContracts, type QueueName, type ReceivedJob } from './contracts';

/** Where pg-boss keeps the queue. */
export const JOB_QUEUE_SCHEMA = 'job_queue';

export type JobLog = Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'>;

export interface JobQueueOptions {
  /** How often an idle worker asks for a job (pg-boss minimum 0.5 s). Local sends wake it at once. */
  pollingIntervalSeconds?: number;
  /** A sync job still active after this is failed by pg-boss (its run is watched by our own heartbeat). */
  syncExpireInHours?: number;
  /** How long stop() lets pg-boss wait for jobs in progress before it fails them (pg-boss minimum 1 s). */
  stopTimeoutSeconds?: number;
}

/** pg-boss's states, plus null for "no such job". */
export type JobState = 'created' | 'retry' | 'active' | 'completed' | 'cancelled' | 'failed';

export interface JobInfo {
  state: JobState;
  startedOn: Date | null;
}

export interface JobQueue {
  start(): Promise<void>;
  stop(): Promise<void>;
  /** Enqueues; with `id` the job takes that id (an existing job with it is replaced). */
  send<N extends QueueName>(name: N, payload: JobContracts[N], options?: { id?: string; startAfter?: Date }): Promise<string | null>;
  /** Runs `handler` for each job of `name`; `concurrency` of them at once in this process (default 1). */
  work<N extends QueueName>(name: N, handler: (job: ReceivedJob<N>) => Promise<void>, options?: { concurrency?: number }): Promise<void>;
  /** Stops fetching new jobs of `name` (the one running finishes). */
  offWork(name: QueueName): Promise<void>;
  job(name: QueueName, id: string): Promise<JobInfo | null>;
  schedule<N extends QueueName>(name: N, cron: string, payload: JobContracts[N]): Promise<void>;
  /**
   * Moves what waits in the previous release's queue (pg-boss 10, schema `pgboss`) into this one:
   * at start, and on every tick while a process of that release may still be queueing there.
   */
  adoptLegacy(): Promise<{ moved: number; schedules: number }>;
}

/**
 * pg-boss's executeSql over PGlite's single connection. The app's instance leaves timestamps as
 * text for Drizzle; pg-boss gets PGlite's own parsing of them (Date objects), as on node-postgres.
 */
export function pgliteExecutor(client: PGlite): Db {
  const options = { parsers: PGLITE_DEFAULT_PARSERS };
  return {
    async executeSql(text: string, values?: unknown[]) {
      if (values && values.length > 0) {
        const result = await client.query(text, values, options);
        return { rows: result.rows };
      }
      try {
        const results = await client.exec(text, options);
        return { rows: results.flatMap((r) => r.rows) };
      } catch (error) {
        await client.exec('ROLLBACK').catch(() => undefined);
        throw error;
      }
    },
  };
}

/** pg-boss's executeSql over the app's pool: the same connections, limits and settings. */
export function poolExecutor(pool: pg.Pool): Db {
  return {
    async executeSql(text: string, values?: unknown[]) {
      const result = (await pool.query(text, values)) as unknown as pg.QueryResult | pg.QueryResult[];
      // Several statements answer one result each; pg-boss reads rows from whichever returns them.
      return { rows: Array.isArray(result) ? result.flatMap((r) => r.rows) : result.rows };
    },
  };
}

/**
 * The executor, with the statements still running counted: pg-boss's stop() can resolve while a
 * statement it started is still on its way (pg-boss 10 marked a finished job done without awaiting
 * it; a fetch in flight does the same), and the database closed next would fail it (an unhandled
 * rejection, seen in CI). stop() below waits for them.
 */
export function settling(db: Db): Db & { settled(): Promise<void>; busy(): boolean } {
  const running = new Set<Promise<unknown>>();
  return {
    executeSql(text: string, values: unknown[]) {
      const statement = db.executeSql(text, values);
      running.add(statement);
      statement.then(
        () => running.delete(statement),
        () => running.delete(statement),
      );
      return statement;
    },
    async settled() {
      while (running.size > 0) await Promise.allSettled([...running]);
    },
    busy: () => running.size > 0,
  };
}

function executorFor(database: Database): Db {
  return database.kind === 'pglite' ? pgliteExecutor(database.client) : poolExecutor(database.client);
}

export function createJobQueue(deps: { database: Database; log: JobLog; options?: JobQueueOptions }): JobQueue {
  const pollingIntervalSeconds = Math.max(0.5, deps.options?.pollingIntervalSeconds ?? 2);
  const executor = settling(executorFor(deps.database));
  const boss = new PgBoss({ db: executor, schema: JOB_QUEUE_SCHEMA, backend: deps.database.kind === 'pglite' ? 'pglite' : 'postgres' });
  const legacy = createLegacyJobQueueRepository(deps.database.db);
  let legacyVersionWarned = false;
  // An EventEmitter without an 'error' listener would crash the process on pg-boss's first hiccup.
  boss.on('error', (error) => deps.log.error({ err: error }, 'job queue error'));
  const workerIds = new Map<QueueName, string>();
  // Our handlers still running: pg-boss's stop() gives up on them after its timeout, yet each one
  // goes on and, when it ends, pg-boss marks its job done — against a database the caller closes
  // next. stop() waits for them (the sync workers end theirs at once).
  const handling = new Set<Promise<void>>();
  const expireInSeconds = Math.round((deps.options?.syncExpireInHours ?? 4) * 3600);

  async function adoptLegacy() {
    const version = await legacy.version();
    if (version === null) return { moved: 0, schedules: 0 };
    if (version !== LEGACY_QUEUE_VERSION) {
      if (!legacyVersionWarned) {
        const why = `a job queue of an unknown layout is in schema ${LEGACY_QUEUE_SCHEMA}; only pg-boss 10's (version ${LEGACY_QUEUE_VERSION}) is moved`;
        deps.log.warn({ schema: LEGACY_QUEUE_SCHEMA, version }, why);
      }
      legacyVersionWarned = true;
      return { moved: 0, schedules: 0 };
    }
    const schedules = await legacy.copySchedules(JOB_QUEUE_SCHEMA, QUEUES);
    const moved = await legacy.moveWaiting(JOB_QUEUE_SCHEMA, QUEUES);
    if (moved.length + schedules > 0) {
      deps.log.info({ moved: moved.length, schedules }, `moved the jobs waiting in the previous release's queue (schema ${LEGACY_QUEUE_SCHEMA})`);
    }
    // Workers already polling hear of them at once.
    for (const name of new Set(moved.map((job) => job.name as QueueName))) {
      const worker = workerIds.get(name);
      if (worker) boss.notifyWorker(worker);
    }
    return { moved: moved.length, schedules };
  }

  return {
    async start() {
      await boss.start();
      for (const name of QUEUES) {
        // Sync jobs are not retried by pg-boss: a run that fails says why, and one whose worker died
        // is resumed by the sweeper (it watches the run's heartbeat, which pg-boss cannot see).
        await boss.createQueue(name, {
          policy: 'standard',
          retryLimit: 0,
          // A bulk action of thousands of rows, each a provider call, may run past 15 minutes.
          expireInSeconds: name === 'terminal-sync' || name === 'usage-sync' ? expireInSeconds : name === 'bulk-run' ? 4 * 3600 : 900,
          // Job rows are bookkeeping (a run's story is in sync_runs): a finished one goes after a week.
          deleteAfterSeconds: 7 * 86_400,
        });
      }
      await adoptLegacy();
    },

    adoptLegacy,

    async stop() {
      await boss.stop({ graceful: true, timeout: (deps.options?.stopTimeoutSeconds ?? 10) * 1000 });
      // A worker's fetch still on its way when stop() began brings its jobs afterwards (pg-boss
      // runs them even though the worker is stopping), and their completion follows the handler.
      // So: wait until a whole turn passes with no handler running and no statement in flight.
      const nextTurn = () => new Promise((resolve) => setImmediate(resolve));
      do {
        while (handling.size > 0) await Promise.allSettled([...handling]);
        await nextTurn();
        await executor.settled();
        await nextTurn();
      } while (handling.size > 0 || executor.busy());
    },

    async send(name, payload, options = {}) {
      if (options.id) await boss.deleteJob(name, options.id);
      const id = await boss.send(name, payload as object, { ...(options.id ? { id: options.id } : {}), ...(options.startAfter ? { startAfter: options.startAfter } : {}) });
      const worker = workerIds.get(name);
      if (worker) boss.notifyWorker(worker);
      return id;
    },

    async work(name, handler, options = {}) {
      const id = await boss.work<JobContracts[typeof name]>(name, { pollingIntervalSeconds, batchSize: 1, localConcurrency: options.concurrency ?? 1 }, async (jobs) => {
        const handled = (async () => {
          for (const job of jobs) await handler({ id: job.id, name, payload: job.data });
        })();
        handling.add(handled);
        try {
          await handled;
        } finally {
          handling.delete(handled);
        }
      });
      workerIds.set(name, id);
    },

    async offWork(name) {
      workerIds.delete(name);
      // Without waiting: the run in progress is the caller's to hand back (pg-boss 12 waits by default).
      await boss.offWork(name, { wait: false });
    },

    async job(name, id) {
      const [found] = await boss.findJobs(name, { id });
      return found ? { state: found.state, startedOn: found.startedOn ?? null } : null;
    },

    async schedule(name, cron, payload) {
      await boss.schedule(name, cron, payload as object, { tz: 'UTC' });
    },
  };
}
