// Background sync on pg-boss: the queue, the two sync workers, the sweeper and the schedule,
// started and stopped together. app.ts builds it when a provider is configured; server.ts starts
// it once the provider can be reached (the built-in simulator's URL is only known after listen),
// while an app built for tests starts it when ready.
//
// start(): pg-boss up (its schema created on first use) → workers → a sweep for runs a previous
// process left behind (resumed, or given up after 3 attempts) → the first-start sync on an empty
// inventory → the per-minute tick (sweep + inventory and usage schedules) as a pg-boss cron, which
// one process gets.
// stop(): no new jobs → runs in progress go back to the queue → pg-boss down.
import type { SyncBudgetShape } from '../../src/domain/provider-budget';
import type { Clock } from '../clock';
import type { Config } from '../config';
import type { Database } from '../db/client';
import type { Repositories } from '../db/repositories';
import type { SyncRunRow } from '../db/schema';
import type { SyncDispatcher, TerminalSyncService } from '../services/terminal-sync';
import { QUEUE_OF_KIND, TICK_CRON } from './contracts';
import { createJobQueue, type JobLog, type JobQueueOptions } from './queue';
import { createScheduler, type Scheduler } from './scheduler';
import { createSweeper, type SweepResult, type Sweeper } from './sweeper';
import { createTerminalSyncWorker, createUsageSyncWorker } from './sync-workers';

export { MAX_SYNC_ATTEMPTS, type SweepResult } from './sweeper';
export { ShutdownError } from './run-worker';

export interface SyncJobsOptions extends JobQueueOptions {
  /** How often a running sync writes its heartbeat and progress; default 5 s. */
  heartbeatMs?: number;
}

export interface SyncJobs extends SyncDispatcher {
  start(): Promise<void>;
  stop(): Promise<void>;
  /** What the per-minute cron runs: the sweeper, then the schedule (inventory first, then usage). */
  tick(): Promise<{ sweep: SweepResult; scheduled: SyncRunRow | null; scheduledUsage: SyncRunRow | null }>;
  readonly sweeper: Sweeper;
  readonly scheduler: Scheduler;
  readonly running: boolean;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The background sync, or null when no provider is configured. */
    syncJobs: SyncJobs | null;
  }
}

export function createSyncJobs(deps: {
  database: Database;
  repos: Repositories;
  sync: TerminalSyncService;
  config: Pick<Config, 'syncIntervalMs' | 'usageSyncIntervalMs' | 'syncStaleAfterMs'>;
  now: Clock;
  log: JobLog;
  options?: SyncJobsOptions;
  afterStartupSync?: () => Promise<unknown>;
  /** The provider budget the schedule is sized to, read on each tick (the scheduler's default when absent). */
  budget?: () => SyncBudgetShape;
}): SyncJobs {
  const { repos, sync, now, log } = deps;
  const runs = repos.syncRuns;
  const queue = createJobQueue({ database: deps.database, log, options: deps.options });
  let ready = false;
  let state: 'stopped' | 'starting' | 'running' | 'stopping' = 'stopped';

  const dispatcher: SyncDispatcher = {
    async dispatch(run) {
      if (!ready) return false;
      await queue.send(QUEUE_OF_KIND[run.kind], { runId: run.id }, { id: run.id });
      return true;
    },
  };
  const workerDeps = { runs, sync, dispatcher, now, log, heartbeatMs: deps.options?.heartbeatMs, afterStartupSync: deps.afterStartupSync };
  const inventoryWorker = createTerminalSyncWorker(workerDeps);
  const usageWorker = createUsageSyncWorker(workerDeps);
  const sweeper = createSweeper({
    runs,
    queue,
    dispatcher,
    now,
    log,
    staleAfterMs: deps.config.syncStaleAfterMs,
    singleProcess: deps.database.kind === 'pglite',
  });
  const scheduler = createScheduler({
    runs,
    sync,
    now,
    intervalMs: deps.config.syncIntervalMs,
    usageIntervalMs: deps.config.usageSyncIntervalMs,
    ...(deps.budget ? { budget: deps.budget } : {}),
  });

  async function tick() {
    const sweep = await sweeper.sweep();
    const scheduled = await scheduler.tick();
    const scheduledUsage = await scheduler.tickUsage();
    return { sweep, scheduled, scheduledUsage };
  }

  return {
    ...dispatcher,
    sweeper,
    scheduler,
    tick,
    get running() {
      return state === 'running';
    },

    async start() {
      if (state !== 'stopped') return;
      state = 'starting';
      try {
        await queue.start();
        ready = true;
        await queue.work('terminal-sync', (job) => inventoryWorker.handle(job.payload.runId));
        await queue.work('usage-sync', (job) => usageWorker.handle(job.payload.runId));
        await queue.work('sync-tick', async () => {
          await tick().catch((error: unknown) => log.error({ err: error }, 'sync tick failed'));
        });
        const swept = await sweeper.sweep({ startup: true });
        if (swept.resumed.length + swept.failed.length + swept.reenqueued.length > 0) log.info({ ...swept }, 'sync runs recovered at start-up');
        const first = await scheduler.startup();
        if (first) log.info({ runId: first.id }, 'empty inventory: first sync queued');
        await queue.schedule('sync-tick', TICK_CRON, {});
        state = 'running';
      } catch (error) {
        ready = false;
        await queue.stop().catch(() => undefined);
        state = 'stopped';
        throw error;
      }
    },

    async stop() {
      if (state === 'stopped' || state === 'stopping') return;
      state = 'stopping';
      // Fetch nothing new, hand the runs in progress back to the queue, then let pg-boss go.
      await queue.offWork('terminal-sync');
      await queue.offWork('usage-sync');
      await Promise.all([inventoryWorker.stop(), usageWorker.stop()]);
      ready = false;
      await queue.stop();
      state = 'stopped';
    },
  };
}
