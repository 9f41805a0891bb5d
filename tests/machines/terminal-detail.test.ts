import { describe, expect, it } from 'vitest';
import { waitFor } from 'xstate';
import { TERMINAL_DETAIL_MESSAGES, type DetailOutcome, type UsageRequest } from '../../src/machines/terminal-detail';
import { NetworkError } from '../../src/api/client';
import { TERMINAL_MESSAGES } from '../../src/domain/terminals';
import { terminalFixture, usageFixture } from '../fixtures/terminals-client';
import { ok, refused, type Answer } from './scripted-actors';
import { detail, dismiss, noUsage, openDetail, refresh, refreshed, reportIssue, retry, selectMonth, settled, terminal, usage } from './starters/terminal-detail';

const november: UsageRequest = { serviceLineNumber: terminal.serviceLineNumber, year: 2026, month: 11 };

describe('terminal detail machine: opening', () => {
  it('shows the list record at once and loads the detail and the current month of usage side by side', async () => {
    const { actor, calls } = openDetail();
    const first = actor.getSnapshot();
    expect(first.value).toEqual({ detail: 'loading', usage: 'loading', action: 'idle' });
    expect(first.hasTag('loadingDetail') && first.hasTag('loadingUsage')).toBe(true);
    expect(first.context).toMatchObject({ terminal, detail: null, month: '2026-11' });
    expect(first.context.months[0]).toEqual({ value: '2026-11', label: 'November 2026', year: 2026, month: 11 });
    expect(first.context.months).toHaveLength(12);
    const snapshot = await waitFor(actor, settled);
    expect(snapshot.value).toEqual({ detail: 'loaded', usage: 'loaded', action: 'idle' });
    expect(snapshot.context).toMatchObject({ detail, detailError: null, usage, usageError: null, notice: null });
    expect(calls.map((c) => [c.name, c.input])).toEqual([
      ['loadDetail', terminal.userTerminalId],
      ['loadUsage', november],
    ]);
  });

  it('starts on the month it is given, or the current one when that month is not offered', async () => {
    expect(openDetail({}, { month: '2026-3' }).actor.getSnapshot().context.month).toBe('2026-3');
    const { actor, called } = openDetail({}, { month: '2024-1' });
    expect(actor.getSnapshot().context.month).toBe('2026-11');
    await waitFor(actor, settled);
    expect(called('loadUsage')[0]?.input).toEqual(november);
  });

  it('a terminal without a service line has no usage to ask for: "No Usage Data Available" at once', async () => {
    const { actor, called } = openDetail({}, { terminal: terminalFixture({ serviceLineNumber: 'Unknown' }) });
    expect(actor.getSnapshot().matches({ usage: 'empty' })).toBe(true);
    await waitFor(actor, settled);
    expect(called('loadUsage')).toEqual([]);
  });
});

describe('terminal detail machine: the detail fetch', () => {
  it("a failed fetch falls back to the list record with the server's message; Try Again loads it again", async () => {
    const { actor, called } = openDetail({ detail: [refused(TERMINAL_MESSAGES.terminalNotFound), ok(detail)] });
    const fallback = await waitFor(actor, (s) => s.matches({ detail: 'fallback' }));
    expect(fallback.context).toMatchObject({ terminal, detail: null, detailError: TERMINAL_MESSAGES.terminalNotFound });
    actor.send(retry);
    expect(actor.getSnapshot().context.detailError).toBeNull();
    expect((await waitFor(actor, (s) => s.matches({ detail: 'loaded' }))).context.detail).toEqual(detail);
    expect(called('loadDetail')).toHaveLength(2);
    // The usage was fine and is not asked for again.
    expect(called('loadUsage')).toHaveLength(1);
  });

  it.each([
    ['a refusal without a message', refused('')],
    ['no answer', new NetworkError('fetch failed')],
    ['a bug', new TypeError('x is undefined')],
  ] as const)('%s says "Failed to load terminal details"', async (_name, failure) => {
    const { actor } = openDetail({ detail: [failure as Answer<DetailOutcome>] });
    expect((await waitFor(actor, (s) => s.matches({ detail: 'fallback' }))).context.detailError).toBe(TERMINAL_MESSAGES.detailFailed);
  });
});

describe('terminal detail machine: usage', () => {
  it('a failed usage call leaves the detail alone; Try Again asks for the usage only', async () => {
    const { actor, called } = openDetail({ usage: [refused('Usage store unavailable'), ok(usage)] });
    const snapshot = await waitFor(actor, settled);
    expect(snapshot.value).toEqual({ detail: 'loaded', usage: 'failed', action: 'idle' });
    expect(snapshot.context).toMatchObject({ detail, usage: null, usageError: 'Usage store unavailable' });
    actor.send(retry);
    expect((await waitFor(actor, settled)).value).toEqual({ detail: 'loaded', usage: 'loaded', action: 'idle' });
    expect(called('loadDetail')).toHaveLength(1);
    expect(called('loadUsage')).toHaveLength(2);
  });

  it('a usage failure without a message, or a thrown one, says "Failed to load usage data"', async () => {
    for (const failure of [refused(''), new Error('boom')]) {
      const { actor } = openDetail({ usage: [failure] });
      expect((await waitFor(actor, settled)).context.usageError).toBe(TERMINAL_DETAIL_MESSAGES.usageFailed);
    }
  });

  it('a month without usage is "empty", keeping the plan and cap the answer carries', async () => {
    const { actor } = openDetail({ usage: [ok(noUsage)] });
    const snapshot = await waitFor(actor, settled);
    expect(snapshot.matches({ usage: 'empty' })).toBe(true);
    expect(snapshot.context.usage).toEqual(noUsage);
  });

  it('choosing a month asks for that month, dropping the figures of the last one; a month not offered is ignored', async () => {
    const october = usageFixture({ dateRange: { start: '2026-10-01', end: '2026-10-31' } });
    const { actor, called } = openDetail({ usage: [ok(usage), ok(october)] });
    await waitFor(actor, settled);
    actor.send(selectMonth('2025-11'));
    expect(actor.getSnapshot().can(selectMonth('2025-11'))).toBe(false);
    expect(actor.getSnapshot().matches({ usage: 'loaded' })).toBe(true);
    actor.send(selectMonth('2026-10'));
    expect(actor.getSnapshot().context).toMatchObject({ month: '2026-10', usage: null });
    expect(actor.getSnapshot().hasTag('loadingUsage')).toBe(true);
    expect((await waitFor(actor, settled)).context.usage).toEqual(october);
    expect(called('loadUsage').map((c) => c.input)).toEqual([november, { ...november, month: 10 }]);
  });

  // Regression: the month change was written on the usage region with reenter, which re-entered
  // every region of the dialog: the detail reloaded and a refresh under way was cancelled.
  it('choosing a month reloads only the usage: the detail stays and a refresh under way goes on', async () => {
    const { actor, called } = openDetail({ refresh: ['hang'] });
    await waitFor(actor, settled);
    actor.send(refresh);
    actor.send(selectMonth('2026-10'));
    expect(actor.getSnapshot().value).toEqual({ detail: 'loaded', usage: 'loading', action: 'refreshing' });
    expect(called('loadDetail')).toHaveLength(1);
    expect(called('refreshTerminal').map((c) => c.signal.aborted)).toEqual([false]);
  });

  it('a month chosen while another loads supersedes it: the first request is aborted', async () => {
    const { actor, called } = openDetail({ usage: ['hang', ok(usage)] });
    actor.send(selectMonth('2026-9'));
    const [first, second] = called('loadUsage');
    expect(first?.signal.aborted).toBe(true);
    expect(second?.input).toEqual({ ...november, month: 9 });
    await waitFor(actor, settled);
  });
});

describe('terminal detail machine: Refresh Data and Report Issue', () => {
  it('Refresh Data asks the provider again, takes the new sync status, reloads the detail and the usage, and tells the app', async () => {
    const { actor, called, terminalChanged } = openDetail({ refresh: ['hang'] });
    await waitFor(actor, settled);
    actor.send(refresh);
    const busy = actor.getSnapshot();
    expect(busy.hasTag('busy') && busy.hasTag('refreshing')).toBe(true);
    expect(busy.can(refresh) || busy.can(reportIssue('x'))).toBe(false);
    expect(called('refreshTerminal').map((c) => c.input)).toEqual([terminal.userTerminalId]);

    const other = openDetail();
    await waitFor(other.actor, settled);
    other.actor.send(refresh);
    const reloading = await waitFor(other.actor, (s) => s.context.notice !== null);
    // The record on screen stays while it reloads.
    expect(reloading.value).toEqual({ detail: 'loading', usage: 'loading', action: 'idle' });
    expect(reloading.context).toMatchObject({ detail, usage, notice: { kind: 'success', text: TERMINAL_DETAIL_MESSAGES.refreshed } });
    expect(reloading.context.terminal).toEqual({ ...terminal, syncStatus: 'synced', lastSyncedAt: refreshed.lastSyncedAt });
    await waitFor(other.actor, settled);
    expect(other.called('loadDetail')).toHaveLength(2);
    expect(other.called('loadUsage')).toHaveLength(2);
    expect(other.terminalChanged).toHaveBeenCalledOnce();
    expect(terminalChanged).not.toHaveBeenCalled();
  });

  it('a refused refresh says why and reloads nothing; a thrown one says "Unknown error occurred"', async () => {
    const { actor, called, terminalChanged } = openDetail({ refresh: [refused('Provider unavailable'), new NetworkError('fetch failed')] });
    await waitFor(actor, settled);
    actor.send(refresh);
    await waitFor(actor, (s) => s.context.notice !== null);
    expect(actor.getSnapshot().context.notice).toEqual({ kind: 'error', text: TERMINAL_DETAIL_MESSAGES.refreshFailed('Provider unavailable') });
    actor.send(refresh);
    expect(actor.getSnapshot().context.notice).toBeNull();
    await waitFor(actor, (s) => s.context.notice !== null);
    expect(actor.getSnapshot().context.notice).toEqual({
      kind: 'error',
      text: TERMINAL_DETAIL_MESSAGES.refreshFailed(TERMINAL_MESSAGES.unknownError),
    });
    expect(called('loadDetail')).toHaveLength(1);
    expect(terminalChanged).not.toHaveBeenCalled();
  });

  it('Report Issue sends the trimmed note and says it was reported; a blank note is refused', async () => {
    const { actor, called } = openDetail();
    await waitFor(actor, settled);
    expect(actor.getSnapshot().can(reportIssue('   '))).toBe(false);
    actor.send(reportIssue('  Dish knocked over by wind  '));
    expect(actor.getSnapshot().hasTag('reporting')).toBe(true);
    await waitFor(actor, (s) => s.matches({ action: 'idle' }));
    expect(called('reportIssue').map((c) => c.input)).toEqual([{ userTerminalId: terminal.userTerminalId, note: 'Dish knocked over by wind' }]);
    expect(actor.getSnapshot().context).toMatchObject({ issueNote: '', notice: { kind: 'success', text: TERMINAL_DETAIL_MESSAGES.issueReported } });
    actor.send(dismiss);
    expect(actor.getSnapshot().context.notice).toBeNull();
  });

  it('a failed report keeps the note and says why', async () => {
    const { actor } = openDetail({ report: [refused('Note is too long'), new Error('boom')] });
    await waitFor(actor, settled);
    actor.send(reportIssue('Dish down'));
    await waitFor(actor, (s) => s.context.notice !== null);
    expect(actor.getSnapshot().context).toMatchObject({
      issueNote: 'Dish down',
      notice: { kind: 'error', text: TERMINAL_DETAIL_MESSAGES.reportFailed('Note is too long') },
    });
    actor.send(reportIssue('Dish down'));
    await waitFor(actor, (s) => s.context.notice !== null);
    expect(actor.getSnapshot().context.notice?.text).toBe(TERMINAL_DETAIL_MESSAGES.reportFailed(TERMINAL_MESSAGES.unknownError));
  });

  it('closing the dialog aborts every request under way', () => {
    const { actor, calls } = openDetail({ detail: ['hang'], usage: ['hang'], refresh: ['hang'] });
    actor.send(refresh);
    expect(calls.map((c) => c.signal.aborted)).toEqual([false, false, false]);
    actor.stop();
    expect(calls.map((c) => c.signal.aborted)).toEqual([true, true, true]);
  });
});
