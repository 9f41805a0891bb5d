import { describe, expect, it } from 'vitest';
import { waitFor } from 'xstate';
import type { SyncQueueOutcome } from '../../src/machines/terminal-sync';
import { NetworkError } from '../../src/api/client';
import { SYNC_POLL_INTERVAL_MS, SYNC_POLL_TIMEOUT_MS, TERMINAL_MESSAGES } from '../../src/domain/terminals';
import { syncQueueFixture } from '../fixtures/terminals-client';
import { alreadyRunning, dismiss, failedJob, isIdle, isWaiting, ok, queued, refused, running, started, startSync, succeeded, sync, type Answer, type Answers } from './starters/terminal-sync';

async function startedSync(answers: Answers = {}) {
  const harness = startSync(answers);
  await waitFor(harness.actor, isIdle);
  harness.actor.send(sync);
  await waitFor(harness.actor, isWaiting);
  return harness;
}

describe('terminal sync machine: checking on open', () => {
  it('asks whether a sync runs; with none the button works and there is no notice', async () => {
    const { actor, calls } = startSync();
    expect(actor.getSnapshot().hasTag('checking')).toBe(true);
    expect(actor.getSnapshot().can(sync)).toBe(false);
    const snapshot = await waitFor(actor, isIdle);
    expect(snapshot.context).toEqual({ job: null, notice: null });
    expect(snapshot.can(sync)).toBe(true);
    expect(calls.map((c) => c.name)).toEqual(['loadQueue']);
  });

  it('a page reload while a sync runs finds it in the queue and follows it (reload survival)', async () => {
    const { actor, polls, advance, reloadList } = startSync({ queue: [ok(syncQueueFixture(running))], poll: [ok(running)] });
    const snapshot = await waitFor(actor, isWaiting);
    expect(snapshot.hasTag('syncing')).toBe(true);
    expect(snapshot.context).toEqual({ job: running, notice: { kind: 'info', text: TERMINAL_MESSAGES.syncStarted } });
    await advance(SYNC_POLL_INTERVAL_MS);
    expect(polls().map((c) => c.input)).toEqual([running.id]);
    expect(reloadList).toHaveBeenCalledOnce();
  });

  it('a queued job counts as running too', async () => {
    const { actor } = startSync({ queue: [ok(syncQueueFixture(queued))] });
    expect((await waitFor(actor, isWaiting)).context.job).toEqual(queued);
  });

  it.each([
    ['a refused queue check', refused(500, 'Database unavailable')],
    ['a check that got no answer', new NetworkError('fetch failed')],
    ['a queue whose active run has ended', ok(syncQueueFixture(succeeded))],
  ] as const)('%s leaves the button working, without a notice', async (_name, queueAnswer) => {
    const { actor } = startSync({ queue: [queueAnswer as Answer<SyncQueueOutcome>] });
    expect((await waitFor(actor, isIdle)).context).toEqual({ job: null, notice: null });
  });
});

describe('terminal sync machine: starting', () => {
  it('a started sync shows "Syncing..." (busy), the blue card (syncing) with the server message, and the button is disabled', async () => {
    const { actor } = startSync({ start: ['hang'] });
    await waitFor(actor, isIdle);
    actor.send(sync);
    expect(actor.getSnapshot().value).toBe('starting');
    expect(actor.getSnapshot().hasTag('busy')).toBe(true);
    expect(actor.getSnapshot().hasTag('syncing')).toBe(false);

    const { actor: other } = await startedSync({ start: [started(queued, 'Sync queued')] });
    const snapshot = other.getSnapshot();
    expect(snapshot.hasTag('busy') && snapshot.hasTag('syncing')).toBe(true);
    expect(snapshot.can(sync)).toBe(false);
    expect(snapshot.context).toEqual({ job: queued, notice: { kind: 'success', text: 'Sync queued' } });
  });

  it('without a server message the notice is the spec text', async () => {
    const { actor } = await startedSync({ start: [started(queued, '')] });
    expect(actor.getSnapshot().context.notice).toEqual({ kind: 'success', text: TERMINAL_MESSAGES.syncStarted });
  });

  it('"already running" is an informational notice and the state returns to idle', async () => {
    const { actor, polls, advance } = startSync({ start: [alreadyRunning] });
    await waitFor(actor, isIdle);
    actor.send(sync);
    const snapshot = await waitFor(actor, (s) => isIdle(s) && s.context.notice !== null);
    expect(snapshot.context).toEqual({ job: null, notice: { kind: 'info', text: TERMINAL_MESSAGES.syncAlreadyRunning } });
    expect(snapshot.can(sync)).toBe(true);
    await advance(SYNC_POLL_INTERVAL_MS * 3);
    expect(polls()).toEqual([]);
  });

  it('any other refusal says "Failed to start sync: {message}"; none, or a thrown error, says "Unknown error occurred"', async () => {
    const { actor } = startSync({ start: [refused(503, 'Provider credentials are not configured'), refused(500, ''), new Error('boom')] });
    await waitFor(actor, isIdle);
    const notices: unknown[] = [];
    for (let attempt = 0; attempt < 3; attempt++) {
      actor.send(sync);
      notices.push((await waitFor(actor, (s) => isIdle(s) && s.context.notice !== null)).context.notice);
    }
    expect(notices).toEqual([
      { kind: 'error', text: 'Failed to start sync: Provider credentials are not configured' },
      { kind: 'error', text: `Failed to start sync: ${TERMINAL_MESSAGES.unknownError}` },
      { kind: 'error', text: `Failed to start sync: ${TERMINAL_MESSAGES.unknownError}` },
    ]);
  });

  it('starting again clears the last notice, and Dismiss clears it too', async () => {
    const { actor } = startSync({ start: [alreadyRunning, alreadyRunning, 'hang'] });
    await waitFor(actor, isIdle);
    actor.send(sync);
    await waitFor(actor, (s) => s.context.notice !== null);
    actor.send(dismiss);
    expect(actor.getSnapshot().context.notice).toBeNull();
    expect(actor.getSnapshot().can(dismiss)).toBe(false);
    actor.send(sync);
    await waitFor(actor, (s) => s.context.notice !== null && isIdle(s));
    actor.send(sync);
    expect(actor.getSnapshot().context.notice).toBeNull();
  });
});

describe('terminal sync machine: running', () => {
  it('every 10 s the job is read and the list and counts reload; nothing happens in between', async () => {
    const progressed = { ...running, progress: 70 };
    const { actor, polls, advance, reloadList, clock } = await startedSync({ poll: [ok(running), ok(progressed)] });
    clock.increment(SYNC_POLL_INTERVAL_MS - 1);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(polls()).toEqual([]);
    expect(reloadList).not.toHaveBeenCalled();
    await advance(1);
    expect(polls().map((c) => c.input)).toEqual([queued.id]);
    expect(actor.getSnapshot().context.job).toEqual(running);
    await advance(SYNC_POLL_INTERVAL_MS * 2);
    expect(polls()).toHaveLength(3);
    expect(reloadList).toHaveBeenCalledTimes(3);
    expect(actor.getSnapshot().context.job).toEqual(progressed);
    expect(actor.getSnapshot().matches({ running: 'waiting' })).toBe(true);
  });

  it('a job that ends returns to idle early: the notice clears, the app hears of it once, and polling stops', async () => {
    const { actor, polls, advance, notifyFinished } = await startedSync({ poll: [ok(running), ok(succeeded)] });
    await advance(SYNC_POLL_INTERVAL_MS * 2);
    const snapshot = actor.getSnapshot();
    expect(snapshot.value).toBe('idle');
    expect(snapshot.context).toEqual({ job: succeeded, notice: null });
    expect(notifyFinished).toHaveBeenCalledExactlyOnceWith(succeeded);
    await advance(SYNC_POLL_INTERVAL_MS * 3);
    expect(polls()).toHaveLength(2);
  });

  it('a failed job ends the same way, and the app hears it failed', async () => {
    const { actor, advance, notifyFinished } = await startedSync({ poll: [ok(failedJob)] });
    await advance(SYNC_POLL_INTERVAL_MS);
    expect(actor.getSnapshot().value).toBe('idle');
    expect(notifyFinished).toHaveBeenCalledExactlyOnceWith(failedJob);
  });

  it('a refused poll or one without an answer is tried again at the next interval', async () => {
    const { actor, polls, advance } = await startedSync({
      poll: [refused(404, 'Sync job not found'), new NetworkError('socket hang up'), ok(succeeded)],
    });
    await advance(SYNC_POLL_INTERVAL_MS * 2);
    expect(actor.getSnapshot().matches({ running: 'waiting' })).toBe(true);
    expect(actor.getSnapshot().context.job).toEqual(queued);
    await advance(SYNC_POLL_INTERVAL_MS);
    expect(actor.getSnapshot().value).toBe('idle');
    expect(polls()).toHaveLength(3);
  });

  it('after 5 minutes polling stops: idle, the notice cleared, no more polls', async () => {
    const { actor, polls, advance, notifyFinished, clock } = await startedSync({ poll: [ok(running)] });
    await advance(SYNC_POLL_TIMEOUT_MS - SYNC_POLL_INTERVAL_MS);
    clock.increment(SYNC_POLL_INTERVAL_MS - 1);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(actor.getSnapshot().hasTag('syncing')).toBe(true);
    await advance(1);
    const snapshot = actor.getSnapshot();
    expect(snapshot.value).toBe('idle');
    expect(snapshot.context.notice).toBeNull();
    expect(snapshot.can(sync)).toBe(true);
    // Polls at 10 s, 20 s, ... 290 s; the timeout wins the tie at 300 s.
    expect(polls()).toHaveLength(SYNC_POLL_TIMEOUT_MS / SYNC_POLL_INTERVAL_MS - 1);
    await advance(SYNC_POLL_INTERVAL_MS * 3);
    expect(polls()).toHaveLength(SYNC_POLL_TIMEOUT_MS / SYNC_POLL_INTERVAL_MS - 1);
    expect(notifyFinished).not.toHaveBeenCalled();
  });

  it('the timeout aborts a poll still under way', async () => {
    const { actor, polls, advance } = await startedSync({ poll: [...Array(28).fill(ok(running)), 'hang'] });
    await advance(SYNC_POLL_TIMEOUT_MS);
    expect(actor.getSnapshot().value).toBe('idle');
    const last = polls().at(-1)!;
    expect(polls()).toHaveLength(29);
    expect(last.signal.aborted).toBe(true);
  });

  it('a user.sync while running is refused; Dismiss hides the notice but the sync goes on', async () => {
    const { actor, advance, polls } = await startedSync();
    actor.send(sync);
    actor.send(dismiss);
    expect(actor.getSnapshot().matches({ running: 'waiting' })).toBe(true);
    expect(actor.getSnapshot().context.notice).toBeNull();
    await advance(SYNC_POLL_INTERVAL_MS);
    expect(polls()).toHaveLength(1);
  });
});
