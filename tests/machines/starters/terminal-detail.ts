// Opens the terminalDetail machine on a list record with scripted detail, usage, refresh and report
// answers: shared by its actor tests and the pinned journeys of its model.
import { vi } from 'vitest';
import { createActor, type SnapshotFrom } from 'xstate';
import {
  terminalDetailMachine,
  type DetailOutcome,
  type RefreshOutcome,
  type ReportOutcome,
  type TerminalDetailInput,
  type UsageOutcome,
  type UsageRequest,
} from '../../../src/machines/terminal-detail';
import { terminalDetailFixture, terminalFixture, usageFixture } from '../../fixtures/terminals-client';
import { ok, scriptedActors, type Answer } from '../scripted-actors';

export const NOW = new Date('2026-11-20T10:00:00.000Z');
export const terminal = terminalFixture();
export const detail = terminalDetailFixture({ syncStatus: 'pending', nickname: 'North yard (fresh)' });
export const usage = usageFixture();
export const noUsage = usageFixture({ currentBillingCycle: null, rawUsageRecords: [] });
export const refreshed = { userTerminalId: terminal.userTerminalId, syncStatus: 'synced' as const, lastSyncedAt: '2026-11-20T10:05:00.000Z' };

export interface Answers {
  detail?: Array<Answer<DetailOutcome>>;
  usage?: Array<Answer<UsageOutcome>>;
  refresh?: Array<Answer<RefreshOutcome>>;
  report?: Array<Answer<ReportOutcome>>;
}

export function openDetail(answers: Answers = {}, input: Partial<TerminalDetailInput> = {}) {
  const { calls, called, answer } = scriptedActors();
  const terminalChanged = vi.fn();
  const actor = createActor(
    terminalDetailMachine.provide({
      actors: {
        loadDetail: answer<DetailOutcome, string>('loadDetail', answers.detail ?? [ok(detail)]),
        loadUsage: answer<UsageOutcome, UsageRequest>('loadUsage', answers.usage ?? [ok(usage)]),
        refreshTerminal: answer<RefreshOutcome, string>('refreshTerminal', answers.refresh ?? [ok(refreshed)]),
        reportIssue: answer<ReportOutcome, { userTerminalId: string; note: string }>('reportIssue', answers.report ?? [ok({ reported: true })]),
      },
      actions: { terminalChanged: () => terminalChanged() },
    }),
    { input: { terminal, now: NOW, ...input } },
  ).start();
  return { actor, calls, called, terminalChanged };
}

export type Snapshot = SnapshotFrom<typeof terminalDetailMachine>;
export const settled = (s: Snapshot) => !s.hasTag('loadingDetail') && !s.hasTag('loadingUsage') && !s.hasTag('busy');
export const retry = { type: 'user.retry' } as const;
export const refresh = { type: 'user.refresh' } as const;
export const dismiss = { type: 'user.dismissNotice' } as const;
export const selectMonth = (value: string) => ({ type: 'user.selectMonth', value }) as const;
export const reportIssue = (note: string) => ({ type: 'user.reportIssue', note }) as const;
