// Background sync on pg-boss: the queue, the two sync workers, the sweeper and the schedule,
// started and stopped together. app.ts builds it when a provider is configured; server.ts starts
// it once the provider can be reached (the built-in simulator's URL is only known after listen),
// while an app built for tests starts it when ready.
//
// start(): pg-boss up (its schema created on first use) → workers → a sweep for runs a previous
// process left behind (resumed, or given up after 3 attempts) → the first-start sync on an empty
// inventory → the per-minute tick (sweep + inventory and usage schedules) as a pg-boss cron, which
// one process gets. Billing runs wait for the first-start sync's after-step (the demo hands out
// its lines and prices there): one before it would work out, or close, a cycle without them.
// stop(): no new jobs → runs in progress go back to the queue → pg-boss down.
import { availableParallelism, hostname } from 'node:os';
import type { SyncBudgetShape } from '../../src/domain/provider-budget';
import type { Clock } from '../clock';
import type { Config } from '../config';
import type { Database } from '../db/client';
import type { Repositories } from '../db/repositories';
import type { SyncRunRow } from '../db/schema';
import type { SyncDispatcher, TerminalSyncService } from '../services/terminal-sync';
import { QUEUE_OF_KIND, TICK_CRON, type JobContracts } from './contracts';
import { createJobQueue, type JobLog, type JobQueueOptions } from './queue';
import { createScheduler, type ScheduledAccount, type Scheduler } from './scheduler';
import type { RecoveryReport } from '../services/provider-intents';
import { createSweeper, type SweepResult, type Sweeper } from './sweeper';
import { createTerminalSyncWorker, createUsageSyncWorker } from './sync-workers';

/**
 * Sync runs of different provider accounts one process runs at once on PostgreSQL, of each kind
 * (inventory, usage): half the cores, from one to four. A run keeps a core busy between its
 * provider calls, and the admin pages share the cores: with four of each kind on two cores, ten
 * accounts syncing at once took pages to a p95 of 370 ms (10 accounts of 2,000 terminals).
 */
export const SYNC_RUNS_AT_ONCE = Math.min(4, Math.max(1, Math.floor(availableParallelism() / 2)));
export { MAX_SYNC_ATTEMPTS, type SweepResult } from './sweeper';
export { ShutdownError } from './run-worker';

export interface SyncJobsOptions extends JobQueueOptions {
  /** How often a running sync writes its heartbeat and progress; default 5 s. */
  heartbeatMs?: number;
}

/** The alert work the queue runs besides the syncs: rule evaluation and webhook delivery. */
export interface AlertJobHandlers {
  /** Answers how many automatic actions the opened alerts queued or proposed. */
  evaluate(): Promise<{ actions: number }>;
  deliverWebhooks(): Promise<unknown>;
}

/** The changes made without a click at that moment: the rules' actions and the scheduled changes. */
export interface AutomationJobHandlers {
  /** Runs one batch of what is due; `more` when a batch was full. */
  run(): Promise<{ more: boolean }>;
  anyDue(): Promise<boolean>;
}

/** The billing work the queue runs: the due close, then the current cycle's drafts. */
export interface BillingJobHandlers {
  run(reason: JobContracts['billing-run']['reason']): Promise<unknown>;
}

/** The bulk actions the queue runs: one operation's rows, and those to resume. */
export interface BulkJobHandlers {
  run(operationId: string, stopping: () => boolean): Promise<unknown>;
  resumable(): Promise<string[]>;
}

export interface SyncJobs extends SyncDispatcher {
  /** Queues an alert evaluation (rules changed); nothing until the queue runs. */
  requestEvaluation(reason: JobContracts['alerts-evaluate']['reason']): void;
  /** Queues a webhook delivery run: now (new events to send), or at `at` (the next retry's time). */
  requestDelivery(at?: Date): void;
  /** Queues a billing run (prices changed, a sync ended); nothing until the queue runs. */
  requestBillingRun(reason: JobContracts['billing-run']['reason']): void;
  /** Queues the run of a bulk action's rows. */
  requestBulkRun(operationId: string): void;
  start(): Promise<void>;
  stop(): Promise<void>;
  /** What the per-minute cron runs: the sweeper, then the schedule (inventory first, then usage). */
  tick(): Promise<{ sweep: SweepResult; scheduled: SyncRunRow[]; scheduledUsage: SyncRunRow[] }>;
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
  /** The provider accounts whose syncs may run now (the scheduler's account one alone when absent). */
  accounts?: () => Promise<ScheduledAccount[]>;
  /** Alert evaluation and webhook delivery, run by their own queues when given. */
  alerts?: AlertJobHandlers;
  /** The statements' closing and refresh, run by its own queue when given. */
  billing?: BillingJobHandlers;
  /** Bulk actions, run by their own queue when given. */
  bulk?: BulkJobHandlers;
  /** Provider writes a stopped process left without an outcome, looked up on each tick when given. */
  intents?: { recover(): Promise<RecoveryReport> };
  /** Automatic actions and scheduled changes, run by their own queue when given. */
  automation?: AutomationJobHandlers;
  /** The telemetry history's upkeep (partitions ahead, roll-ups, expired partitions dropped), on each tick when given. */
  telemetry?: { maintain(): Promise<{ dropped: string[] }> };
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
  /** Fire and forget: a lost request is made good by the next tick. */
  const request = <N extends 'alerts-evaluate' | 'webhook-deliver'>(name: N, payload: JobContracts[N], startAfter?: Date) => {
    if (!ready || !deps.alerts) return;
    queue.send(name, payload, startAfter ? { startAfter } : {}).catch((error: unknown) => log.warn({ err: error, queue: name }, 'could not queue alert work'));
  };
  // Held from start-up until the first-start run's after-step is done (or the run failed, when
  // there is none); what was asked meanwhile is one run at the release.
  const billingHold = { held: false, startupRunId: null as string | null };
  const requestBilling = (reason: JobContracts['billing-run']['reason']) => {
    if (!ready || !deps.billing) return;
    if (billingHold.held) return;
    queue.send('billing-run', { reason }).catch((error: unknown) => log.warn({ err: error, queue: 'billing-run' }, 'could not queue billing work'));
  };
  const requestAutomation = (reason: JobContracts['automation-run']['reason']) => {
    if (!ready || !deps.automation) return;
    queue.send('automation-run', { reason }).catch((error: unknown) => log.warn({ err: error, queue: 'automation-run' }, 'could not queue automatic changes'));
  };
  const requestBulk = (operationId: string) => {
    if (!ready || !deps.bulk) return;
    queue.send('bulk-run', { operationId }).catch((error: unknown) => log.warn({ err: error, queue: 'bulk-run' }, 'could not queue a bulk action'));
  };
  /** Operations left running (a restart, a process that died mid-row) go back to the queue. */
  const resumeBulk = async () => {
    if (!deps.bulk) return;
    for (const operationId of await deps.bulk.resumable()) requestBulk(operationId);
  };
  const releaseBilling = () => {
    if (!billingHold.held) return;
    billingHold.held = false;
    billingHold.startupRunId = null;
    requestBilling('sync');
  };
  const startupStep = deps.afterStartupSync;
  const afterStartupSync = startupStep
    ? async () => {
        try {
          return await startupStep();
        } finally {
          releaseBilling();
        }
      }
    : undefined;
  // Every sync that ended, however it ended, may have changed what the rules see (a failed one is
  // news for the sync_failed rule), and what the current cycle's statements hold.
  const afterSync = () => {
    request('alerts-evaluate', { reason: 'sync' });
    requestBilling('sync');
    const startupRunId = billingHold.startupRunId;
    // A first-start run that failed has no after-step to wait for.
    if (billingHold.held && startupRunId) {
      runs
        .findById(startupRunId)
        .then((run) => {
          if (!run || run.status === 'failed') releaseBilling();
        })
        .catch((error: unknown) => log.warn({ err: error }, 'could not read the first-start sync run'));
    }
  };
  const workerDeps = { runs, sync, dispatcher, now, log, heartbeatMs: deps.options?.heartbeatMs, afterStartupSync, afterSync };
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
    ...(deps.accounts ? { accounts: deps.accounts } : {}),
  });

  /**
   * Another process may have run the first-start sync, and its step: once that run has ended
   * there, the hold here has nothing left to wait for. (A run of this process releases it itself;
   * run-worker.ts names its workers host:pid:….)
   */
  async function releaseAfterOtherProcess() {
    if (!billingHold.held || !billingHold.startupRunId) return;
    const run = await runs.findById(billingHold.startupRunId);
    const ranHere = run?.workerId?.startsWith(`${hostname()}:${process.pid}:`) ?? false;
    if (!run || ((run.status === 'succeeded' || run.status === 'failed') && !ranHere)) releaseBilling();
  }

  /** What became of the provider writes a stopped process left without an outcome (logged when any). */
  async function recoverIntents() {
    if (!deps.intents) return;
    try {
      const report = await deps.intents.recover();
      if (report.found + report.notDone + report.uncertain + report.unreadable > 0) log.info({ ...report }, 'provider writes left without an answer looked up');
    } catch (error) {
      log.warn({ err: error }, 'could not look up the provider writes left without an answer');
    }
  }

  async function tick() {
    // While a process of the previous release still runs beside this one, what it queues is moved here.
    await queue.adoptLegacy().catch((error: unknown) => log.warn({ err: error }, "could not move the previous release's queued jobs"));
    await releaseAfterOtherProcess().catch((error: unknown) => log.warn({ err: error }, 'could not read the first-start sync run'));
    const sweep = await sweeper.sweep();
    const scheduled = await scheduler.tick();
    const scheduledUsage = await scheduler.tickUsage();
    // Time moves the rules on too (expiring accounts, ended cycles), and retries come due; a cycle
    // that ended waits for its close.
    request('alerts-evaluate', { reason: 'tick' });
    request('webhook-deliver', {});
    requestBilling('tick');
    await resumeBulk().catch((error: unknown) => log.warn({ err: error }, 'could not resume bulk actions'));
    await recoverIntents();
    if (deps.telemetry) {
      try {
        const { dropped } = await deps.telemetry.maintain();
        if (dropped.length > 0) log.info({ dropped }, 'telemetry history: expired partitions dropped');
      } catch (error) {
        log.warn({ err: error }, 'telemetry history upkeep failed');
      }
    }
    // Scheduled changes come due with time, retries after their back-off, and claims a stopped process left.
    if (deps.automation && (await deps.automation.anyDue().catch(() => false))) requestAutomation('tick');
    return { sweep, scheduled, scheduledUsage };
  }

  return {
    ...dispatcher,
    requestEvaluation: (reason) => request('alerts-evaluate', { reason }),
    requestDelivery: (at) => request('webhook-deliver', {}, at),
    requestBillingRun: (reason) => requestBilling(reason),
    requestBulkRun: (operationId) => requestBulk(operationId),
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
        // Provider accounts sync side by side, each on its own budget: on PostgreSQL a process runs
        // several accounts' runs at once; the embedded database has one thread to give them.
        const concurrency = deps.database.kind === 'pglite' ? 1 : SYNC_RUNS_AT_ONCE;
        await queue.work('terminal-sync', (job) => inventoryWorker.handle(job.payload.runId), { concurrency });
        await queue.work('usage-sync', (job) => usageWorker.handle(job.payload.runId), { concurrency });
        if (deps.alerts) {
          const alerts = deps.alerts;
          await queue.work('alerts-evaluate', async () => {
            const report = await alerts.evaluate().catch((error: unknown) => {
              log.error({ err: error }, 'alert evaluation failed');
              return { actions: 0 };
            });
            if (report.actions > 0) requestAutomation('evaluation');
          });
          await queue.work('webhook-deliver', async () => {
            await alerts.deliverWebhooks().catch((error: unknown) => log.error({ err: error }, 'webhook delivery run failed'));
          });
        }
        if (deps.billing) {
          const billing = deps.billing;
          await queue.work('billing-run', async (job) => {
            await billing.run(job.payload.reason).catch((error: unknown) => log.error({ err: error }, 'billing run failed'));
          });
        }
        if (deps.bulk) {
          const bulk = deps.bulk;
          // Between rows the run asks whether the queue is stopping: it stops there, and the rows
          // left pending go on at the next start.
          await queue.work('bulk-run', async (job) => {
            await bulk.run(job.payload.operationId, () => state === 'stopping' || state === 'stopped').catch((error: unknown) => log.error({ err: error }, 'bulk action run failed'));
          });
        }
        if (deps.automation) {
          const automation = deps.automation;
          await queue.work('automation-run', async () => {
            const done = await automation.run().catch((error: unknown) => {
              log.error({ err: error }, 'automatic changes run failed');
              return { more: false };
            });
            if (done.more) requestAutomation('more');
          });
        }
        await queue.work('sync-tick', async () => {
          await tick().catch((error: unknown) => log.error({ err: error }, 'sync tick failed'));
        });
        const swept = await sweeper.sweep({ startup: true });
        if (swept.resumed.length + swept.failed.length + swept.reenqueued.length > 0) log.info({ ...swept }, 'sync runs recovered at start-up');
        // Held before the run exists: its after-step may not come before the hold is set.
        billingHold.held = deps.billing !== undefined && afterStartupSync !== undefined;
        const [first, ...others] = await scheduler.startup();
        if (first) log.info({ runIds: [first, ...others].map((run) => run.id) }, 'empty inventory: first sync queued');
        if (first && billingHold.held) billingHold.startupRunId = first.id;
        else {
          billingHold.held = false;
          // A due close or stale drafts need no sync to be noticed.
          requestBilling('tick');
        }
        await queue.schedule('sync-tick', TICK_CRON, {});
        state = 'running';
        await resumeBulk().catch((error: unknown) => log.warn({ err: error }, 'could not resume bulk actions'));
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
      if (deps.alerts) {
        await queue.offWork('alerts-evaluate');
        await queue.offWork('webhook-deliver');
      }
      if (deps.billing) await queue.offWork('billing-run');
      if (deps.bulk) await queue.offWork('bulk-run');
      if (deps.automation) await queue.offWork('automation-run');
      await Promise.all([inventoryWorker.stop(), usageWorker.stop()]);
      ready = false;
      await queue.stop();
      state = 'stopped';
    },
  };
}
