// Terminals → "Sync from the provider" (terminalSync machine): its generated paths walked on the
// machine and through the /terminals page (one terminal in the list), the poll timers driven by the
// simulated clock, plus journeys pinned by hand.
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { waitFor } from 'xstate';
import { SYNC_POLL_INTERVAL_MS, SYNC_POLL_TIMEOUT_MS, TERMINAL_MESSAGES, type SyncJob } from '../../../src/domain/terminals';
import { terminalSyncMachine } from '../../../src/machines/terminal-sync';
import { syncQueueFixture, terminalRowWire } from '../../fixtures/terminals-client';
import { fleetHealth } from '../../fixtures/terminals-ui';
import { alreadyRunning, dismiss, failedJob, isIdle, isWaiting, nothingRunning, ok, queued, refused, running, started, startSync, succeeded, sync, type Snapshot } from '../../machines/starters/terminal-sync';
import { defineModel, done, failed, type UiModel } from '../framework/model';
import { openPage, type PageScreen } from '../framework/screen';
import { modelSuite } from '../framework/suite';

const syncButton = () => screen.getByRole('button', { name: /^(Sync from the provider|Syncing\.\.\.)$/ }) as HTMLButtonElement;
const runningCard = () => screen.queryByRole('status', { name: TERMINAL_MESSAGES.syncRunningTitle });
const listCalls = ({ calls }: PageScreen) => calls.filter((call) => call.startsWith('GET /api/v1/terminals?')).length;
/** The page, and how many times the list was asked for once it first showed. */
type SyncScreen = PageScreen & { listCallsAtOpen: number };

/** The list caption's start for a job: in progress while queued or running, else how it ended. */
const captionOf = (job: SyncJob) => (job.status === 'queued' || job.status === 'running' ? /^Sync in progress/ : job.status === 'failed' ? /^Last sync failed/ : /^Last sync: /);

/** "Syncing..." on the disabled button, the blue card with the notice (if any), no dismissible notice. */
function expectSyncingView(snapshot: Snapshot) {
  expect(syncButton().textContent).toBe(TERMINAL_MESSAGES.syncing);
  expect(syncButton().disabled).toBe(true);
  const card = runningCard();
  if (snapshot.context.notice) expect(card?.textContent).toContain(snapshot.context.notice.text);
  else expect(card).toBeNull();
  expect(screen.queryByRole('button', { name: 'Dismiss' })).toBeNull();
  // The list caption follows the job being read.
  expect(screen.getByText(captionOf(snapshot.context.job!))).toBeTruthy();
}

const ui = {
  open: async (seam) => {
    const page = openPage('/terminals', seam, {
      'GET /api/v1/terminals': { body: { success: true, message: 'ok', data: { results: [terminalRowWire()], totalCount: 1, page: 1, limit: 25 } } },
      'GET /api/v1/terminals/health': { body: { success: true, message: 'ok', data: fleetHealth({ total: 1 }) } },
    });
    await screen.findByText(/Showing 1 of 1 terminals/, {}, { timeout: 5000 });
    return { ...page, listCallsAtOpen: listCalls(page) };
  },
  events: {
    'user.sync': async ({ user }) => user.click(screen.getByRole('button', { name: TERMINAL_MESSAGES.syncButton })),
    'user.dismissNotice': async ({ user }) => user.click(screen.getByRole('button', { name: 'Dismiss' })),
  },
  states: {
    checking: () => {
      // Until the queue has answered, the button cannot start a second sync.
      expect(syncButton().textContent).toBe(TERMINAL_MESSAGES.syncing);
      expect(syncButton().disabled).toBe(true);
      expect(runningCard()).toBeNull();
    },
    idle: ({ context }) => {
      expect(syncButton().textContent).toBe(TERMINAL_MESSAGES.syncButton);
      expect(syncButton().disabled).toBe(false);
      expect(runningCard()).toBeNull();
      // The caption keeps the last job read (still "in progress" when polling gave up on it).
      if (context.job) expect(screen.getByText(captionOf(context.job))).toBeTruthy();
      if (context.notice) {
        const notice = screen.getByText(context.notice.text).closest('div');
        expect(notice?.getAttribute('role')).toBe(context.notice.kind === 'error' ? 'alert' : 'status');
        expect(screen.getByRole('button', { name: 'Dismiss' })).toBeTruthy();
      } else {
        expect(screen.queryByRole('button', { name: 'Dismiss' })).toBeNull();
      }
    },
    starting: () => {
      expect(syncButton().textContent).toBe(TERMINAL_MESSAGES.syncing);
      expect(syncButton().disabled).toBe(true);
      // Starting clears the notice of the last attempt.
      expect(runningCard()).toBeNull();
      expect(screen.queryByRole('button', { name: 'Dismiss' })).toBeNull();
    },
    'running.waiting': (snapshot) => expectSyncingView(snapshot),
    'running.polling': (snapshot, page) => {
      expectSyncingView(snapshot);
      // Every poll reloads the list beside reading the job.
      expect(listCalls(page)).toBeGreaterThan(page.listCallsAtOpen);
    },
  },
  // The blue card has no Dismiss: while a sync runs only the machine could take user.dismissNotice.
  drivable: (snapshot, event) => event.type !== 'user.dismissNotice' || !snapshot.matches('running'),
} satisfies UiModel<typeof terminalSyncMachine, SyncScreen>;

export const terminalSyncModel = defineModel<typeof terminalSyncMachine, SyncScreen>({
  name: 'terminal-sync',
  machine: terminalSyncMachine,
  events: {
    'user.sync': [sync],
    'user.dismissNotice': [dismiss],
  },
  // One answer per guarded branch of each invoke; the two timers are the run's own (simulated clock).
  actorResults: [
    done('loadQueue', ok(syncQueueFixture(running))),
    done('loadQueue', nothingRunning),
    failed('loadQueue', new Error('fetch failed')),
    done('startSync', started(queued, 'Sync queued')),
    done('startSync', alreadyRunning),
    done('startSync', refused(503, 'Provider credentials are not configured')),
    failed('startSync', new Error('boom')),
    done('pollJob', ok(running)),
    done('pollJob', ok(succeeded)),
    done('pollJob', refused(404, 'Sync job not found')),
    failed('pollJob', new Error('socket hang up')),
  ],
  states: {
    checking: (s) => {
      expect(s.hasTag('checking')).toBe(true);
      expect(s.can(sync)).toBe(false);
      expect(s.context).toEqual({ job: null, notice: null });
    },
    idle: (s) => {
      expect(s.hasTag('busy') || s.hasTag('syncing')).toBe(false);
      expect(s.can(sync)).toBe(true);
      // A success notice belongs to a running sync: whatever ends one clears it.
      expect(s.context.notice?.kind).not.toBe('success');
    },
    starting: (s) => {
      expect(s.hasTag('busy')).toBe(true);
      expect(s.hasTag('syncing')).toBe(false);
      expect(s.can(sync)).toBe(false);
      expect(s.context.notice).toBeNull();
    },
    'running.waiting': (s) => {
      expect(s.hasTag('busy') && s.hasTag('syncing')).toBe(true);
      expect(s.can(sync)).toBe(false);
      expect(s.context.job?.status).toMatch(/^(queued|running)$/);
      expect(s.context.notice?.kind ?? 'info').not.toBe('error');
    },
    'running.polling': (s) => {
      expect(s.hasTag('busy') && s.hasTag('syncing')).toBe(true);
      expect(s.can(sync)).toBe(false);
      expect(s.context.job?.status).toMatch(/^(queued|running)$/);
    },
  },
  ui,
});

modelSuite(terminalSyncModel);

describe('terminal sync machine (pinned journeys)', () => {
  // Pinned by hand: generated expectations would move with a wrong transition, these do not.
  it('a reload finds a sync running, two polls later it succeeds: idle, no notice, list reloaded twice, one notification', async () => {
    const { actor, advance, reloadList, notifyFinished } = startSync({ queue: [ok(syncQueueFixture(running))], poll: [ok(running), ok(succeeded)] });
    await waitFor(actor, isWaiting);
    await advance(SYNC_POLL_INTERVAL_MS * 5);
    const snapshot = actor.getSnapshot();
    expect(snapshot.value).toBe('idle');
    expect(snapshot.context).toEqual({ job: succeeded, notice: null });
    expect(reloadList).toHaveBeenCalledTimes(2);
    expect(notifyFinished).toHaveBeenCalledExactlyOnceWith(succeeded);
  });

  it('already running, dismissed, started again, the job fails on its first poll: idle with the failed job and no notice', async () => {
    const { actor, advance, calls } = startSync({ start: [alreadyRunning, started(queued, 'Sync queued')], poll: [ok(failedJob)] });
    await waitFor(actor, isIdle);
    actor.send(sync);
    await waitFor(actor, (s) => s.context.notice?.kind === 'info');
    actor.send(dismiss);
    actor.send(sync);
    await waitFor(actor, isWaiting);
    await advance(SYNC_POLL_INTERVAL_MS);
    expect(actor.getSnapshot().value).toBe('idle');
    expect(actor.getSnapshot().context).toEqual({ job: failedJob, notice: null });
    expect(calls.map((c) => c.name)).toEqual(['loadQueue', 'startSync', 'startSync', 'pollJob']);
  });

  it('a sync started, then five minutes of a job that never ends: idle, no notice, the last job read kept', async () => {
    const { actor, advance } = startSync({ poll: [ok(running)] });
    await waitFor(actor, isIdle);
    actor.send(sync);
    await waitFor(actor, isWaiting);
    await advance(SYNC_POLL_TIMEOUT_MS);
    expect(actor.getSnapshot().value).toBe('idle');
    expect(actor.getSnapshot().context).toEqual({ job: running, notice: null });
  });
});
