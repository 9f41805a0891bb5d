/**
 * The Terminal Details dialog (spec sections 2 "Terminal Details dialog", 4 "Terminal detail",
 * 8 "Terminals"), local to the dialog. Three independent regions; the overview always has the
 * list record (`terminal`) to show, and the fresh record (`detail`) once it arrives.
 *
 *   detail.loading    the list record, the fresh one loading                      (tag: loadingDetail)
 *   detail.loaded     the fresh record on every tab
 *   detail.fallback   the list record under the warning "Showing basic terminal information" with
 *                     the reason (`detailError`); Try Again loads again
 *
 *   usage.loading     the Usage tab's month selector, its figures loading           (tag: loadingUsage)
 *   usage.loaded      Data Cap and Plan, Current Billing Cycle Usage for the month
 *   usage.empty       "No Usage Data Available" (nothing stored for the month, or no service line)
 *   usage.failed      the usage failure (`usageError`); the other tabs are unaffected; Try Again
 *
 *   action.idle       the Actions tab's "Refresh Data" and "Report Issue" buttons, and the notice
 *                     of the last one (`notice`)
 *   action.refreshing the provider is asked again; both buttons disabled      (tags: busy, refreshing)
 *   action.reporting  the issue is being sent; both buttons disabled           (tags: busy, reporting)
 *
 * A refresh that succeeds reloads the detail and the usage (`terminal.refreshed`) and tells the
 * app (`terminalChanged`) so the list row can follow.
 */
import { assign, fromPromise, raise, setup } from 'xstate';
import {
  TERMINAL_MESSAGES,
  lastTwelveMonths,
  parseMonthValue,
  type MonthOption,
  type TerminalListItem,
} from '../domain/terminals';
import type { ServiceLineUsage, TerminalDetail, TerminalRefresh } from '../api/terminals';
import type { LoadOutcome } from './resource';

export interface TerminalDetailInput {
  /** The basic record from the list: shown at once, and the fallback when the detail fails. */
  terminal: TerminalListItem;
  /** A month value such as '2025-3'; the current month when missing or not among the twelve. */
  month?: string;
  /** Today, for the month selector; the current time when missing. */
  now?: Date;
}

export type DetailNoticeKind = 'success' | 'error';
export interface DetailNotice {
  kind: DetailNoticeKind;
  text: string;
}

export interface TerminalDetailContext {
  terminal: TerminalListItem;
  detail: TerminalDetail | null;
  detailError: string | null;
  /** The month selector's options, newest first. */
  months: MonthOption[];
  /** The selected month's value. */
  month: string;
  usage: ServiceLineUsage | null;
  usageError: string | null;
  /** The note of the issue being (or last unsuccessfully) reported. */
  issueNote: string;
  notice: DetailNotice | null;
}

export type TerminalDetailEvent =
  | { type: 'user.selectMonth'; value: string }
  | { type: 'user.retry' }
  | { type: 'user.refresh' }
  | { type: 'user.reportIssue'; note: string }
  | { type: 'user.dismissNotice' }
  | { type: 'terminal.refreshed' };

export interface UsageRequest {
  serviceLineNumber: string;
  year: number;
  /** 1–12. */
  month: number;
}

export type DetailOutcome = LoadOutcome<TerminalDetail>;
export type UsageOutcome = LoadOutcome<ServiceLineUsage>;
export type RefreshOutcome = LoadOutcome<TerminalRefresh>;
export type ReportOutcome = LoadOutcome<unknown>;

export const TERMINAL_DETAIL_MESSAGES = {
  usageFailed: 'Failed to load usage data',
  refreshed: 'Terminal data refreshed',
  refreshFailed: (message: string) => `Failed to refresh terminal data: ${message}`,
  issueReported: 'Issue reported. Support will follow up on this terminal.',
  reportFailed: (message: string) => `Failed to report issue: ${message}`,
} as const;

/** A list record without a service line has no usage to ask for. */
const hasServiceLine = (terminal: TerminalListItem) => terminal.serviceLineNumber !== '' && terminal.serviceLineNumber !== 'Unknown';
const failureOf = (outcome: LoadOutcome<unknown>) => (outcome.ok ? '' : outcome.message);
const orUnknown = (message: string) => message || TERMINAL_MESSAGES.unknownError;

export function initialDetailContext(input: TerminalDetailInput): TerminalDetailContext {
  const months = lastTwelveMonths(input.now ?? new Date());
  const month = months.find((m) => m.value === input.month)?.value ?? months[0]!.value;
  return {
    terminal: input.terminal,
    detail: null,
    detailError: null,
    months,
    month,
    usage: null,
    usageError: null,
    issueNote: '',
    notice: null,
  };
}

const detailSetup = setup({
  types: {
    context: {} as TerminalDetailContext,
    events: {} as TerminalDetailEvent,
    input: {} as TerminalDetailInput,
  },
  actors: {
    /** Input: the user terminal id. */
    loadDetail: fromPromise<DetailOutcome, string>(async () => {
      throw new Error('loadDetail is provided by the app');
    }),
    loadUsage: fromPromise<UsageOutcome, UsageRequest>(async () => {
      throw new Error('loadUsage is provided by the app');
    }),
    /** Input: the user terminal id. */
    refreshTerminal: fromPromise<RefreshOutcome, string>(async () => {
      throw new Error('refreshTerminal is provided by the app');
    }),
    reportIssue: fromPromise<ReportOutcome, { userTerminalId: string; note: string }>(async () => {
      throw new Error('reportIssue is provided by the app');
    }),
  },
  actions: {
    storeDetail: assign((_, outcome: DetailOutcome) => (outcome.ok ? { detail: outcome.data, detailError: null } : {})),
    // Spec 8: the server's message, or "Failed to load terminal details"; the dialog falls back to the list record.
    storeDetailError: assign((_, message: string) => ({ detail: null, detailError: message || TERMINAL_MESSAGES.detailFailed })),
    storeMonth: assign((_, value: string) => ({ month: value, usage: null, usageError: null })),
    storeUsage: assign((_, outcome: UsageOutcome) => (outcome.ok ? { usage: outcome.data, usageError: null } : {})),
    storeUsageError: assign((_, message: string) => ({ usage: null, usageError: message || TERMINAL_DETAIL_MESSAGES.usageFailed })),
    clearUsage: assign({ usage: null, usageError: null }),
    clearUsageError: assign({ usageError: null }),
    clearDetailError: assign({ detailError: null }),
    storeRefresh: assign(({ context }, outcome: RefreshOutcome) =>
      outcome.ok
        ? { terminal: { ...context.terminal, syncStatus: outcome.data.syncStatus, lastSyncedAt: outcome.data.lastSyncedAt } }
        : {},
    ),
    storeIssueNote: assign((_, note: string) => ({ issueNote: note.trim() })),
    clearIssueNote: assign({ issueNote: '' }),
    storeNotice: assign((_, notice: DetailNotice) => ({ notice })),
    clearNotice: assign({ notice: null }),
    reloadTerminal: raise({ type: 'terminal.refreshed' }),
    /** The terminal's record changed on the server: the list may reload. */
    terminalChanged: () => {},
  },
  guards: {
    isLoaded: (_, outcome: LoadOutcome<unknown>) => outcome.ok,
    hasCycle: (_, outcome: UsageOutcome) => outcome.ok && outcome.data.currentBillingCycle !== null,
    lacksServiceLine: ({ context }) => !hasServiceLine(context.terminal),
    isOfferedMonth: ({ context }, value: string) => context.months.some((m) => m.value === value),
    hasNote: (_, note: string) => note.trim() !== '',
    hasNotice: ({ context }) => context.notice !== null,
  },
});

const reloadDetail = { target: '#terminalDetail.detail.loading', reenter: true } as const;
const reloadUsage = {
  // Choosing a month (even the same one again) asks for it; a month not offered is ignored.
  'user.selectMonth': {
    guard: { type: 'isOfferedMonth', params: ({ event }: { event: { value: string } }) => event.value },
    target: '#terminalDetail.usage.loading',
    reenter: true,
    actions: { type: 'storeMonth', params: ({ event }: { event: { value: string } }) => event.value },
  },
  'terminal.refreshed': { target: '#terminalDetail.usage.loading', reenter: true },
} as const;

export const terminalDetailMachine = detailSetup.createMachine({
  id: 'terminalDetail',
  context: ({ input }) => initialDetailContext(input),
  type: 'parallel',
  on: { 'user.dismissNotice': { guard: 'hasNotice', actions: 'clearNotice' } },
  states: {
    detail: {
      initial: 'loading',
      // Reloads are written on each state, not on the region: a region's own transition that
      // re-enters it would re-enter every region of the dialog. The record stays on screen meanwhile.
      states: {
        loading: {
          tags: ['loadingDetail'],
          entry: 'clearDetailError',
          on: { 'terminal.refreshed': reloadDetail },
          invoke: {
            id: 'loadDetail',
            src: 'loadDetail',
            input: ({ context }) => context.terminal.userTerminalId,
            onDone: [
              {
                guard: { type: 'isLoaded', params: ({ event }) => event.output },
                target: 'loaded',
                actions: { type: 'storeDetail', params: ({ event }) => event.output },
              },
              { target: 'fallback', actions: { type: 'storeDetailError', params: ({ event }) => failureOf(event.output) } },
            ],
            onError: { target: 'fallback', actions: { type: 'storeDetailError', params: TERMINAL_MESSAGES.detailFailed } },
          },
        },
        loaded: { on: { 'terminal.refreshed': reloadDetail } },
        fallback: { on: { 'user.retry': 'loading', 'terminal.refreshed': reloadDetail } },
      },
    },

    usage: {
      initial: 'loading',
      states: {
        loading: {
          tags: ['loadingUsage'],
          entry: 'clearUsageError',
          // A month chosen while another loads supersedes it (the request under way is aborted).
          on: reloadUsage,
          always: { guard: 'lacksServiceLine', target: 'empty', actions: 'clearUsage' },
          invoke: {
            id: 'loadUsage',
            src: 'loadUsage',
            input: ({ context }) => {
              const { year, month } = parseMonthValue(context.month)!;
              return { serviceLineNumber: context.terminal.serviceLineNumber, year, month };
            },
            onDone: [
              {
                guard: { type: 'hasCycle', params: ({ event }) => event.output },
                target: 'loaded',
                actions: { type: 'storeUsage', params: ({ event }) => event.output },
              },
              // The month has no usage stored: the plan and cap are still worth keeping.
              {
                guard: { type: 'isLoaded', params: ({ event }) => event.output },
                target: 'empty',
                actions: { type: 'storeUsage', params: ({ event }) => event.output },
              },
              { target: 'failed', actions: { type: 'storeUsageError', params: ({ event }) => failureOf(event.output) } },
            ],
            onError: { target: 'failed', actions: { type: 'storeUsageError', params: TERMINAL_DETAIL_MESSAGES.usageFailed } },
          },
        },
        loaded: { on: reloadUsage },
        empty: { on: reloadUsage },
        failed: { on: { ...reloadUsage, 'user.retry': 'loading' } },
      },
    },

    action: {
      initial: 'idle',
      states: {
        idle: {
          on: {
            'user.refresh': 'refreshing',
            'user.reportIssue': {
              guard: { type: 'hasNote', params: ({ event }) => event.note },
              target: 'reporting',
              actions: { type: 'storeIssueNote', params: ({ event }) => event.note },
            },
          },
        },
        refreshing: {
          tags: ['busy', 'refreshing'],
          entry: 'clearNotice',
          invoke: {
            id: 'refreshTerminal',
            src: 'refreshTerminal',
            input: ({ context }) => context.terminal.userTerminalId,
            onDone: [
              {
                guard: { type: 'isLoaded', params: ({ event }) => event.output },
                target: 'idle',
                actions: [
                  { type: 'storeRefresh', params: ({ event }) => event.output },
                  { type: 'storeNotice', params: { kind: 'success', text: TERMINAL_DETAIL_MESSAGES.refreshed } },
                  'terminalChanged',
                  'reloadTerminal',
                ],
              },
              {
                target: 'idle',
                actions: {
                  type: 'storeNotice',
                  params: ({ event }) => ({ kind: 'error', text: TERMINAL_DETAIL_MESSAGES.refreshFailed(orUnknown(failureOf(event.output))) }),
                },
              },
            ],
            onError: {
              target: 'idle',
              actions: { type: 'storeNotice', params: { kind: 'error', text: TERMINAL_DETAIL_MESSAGES.refreshFailed(TERMINAL_MESSAGES.unknownError) } },
            },
          },
        },
        reporting: {
          tags: ['busy', 'reporting'],
          entry: 'clearNotice',
          invoke: {
            id: 'reportIssue',
            src: 'reportIssue',
            input: ({ context }) => ({ userTerminalId: context.terminal.userTerminalId, note: context.issueNote }),
            onDone: [
              {
                guard: { type: 'isLoaded', params: ({ event }) => event.output },
                target: 'idle',
                actions: ['clearIssueNote', { type: 'storeNotice', params: { kind: 'success', text: TERMINAL_DETAIL_MESSAGES.issueReported } }],
              },
              // The note stays, so the dialog can offer it again.
              {
                target: 'idle',
                actions: {
                  type: 'storeNotice',
                  params: ({ event }) => ({ kind: 'error', text: TERMINAL_DETAIL_MESSAGES.reportFailed(orUnknown(failureOf(event.output))) }),
                },
              },
            ],
            onError: {
              target: 'idle',
              actions: { type: 'storeNotice', params: { kind: 'error', text: TERMINAL_DETAIL_MESSAGES.reportFailed(TERMINAL_MESSAGES.unknownError) } },
            },
          },
        },
      },
    },
  },
});

export type TerminalDetailMachine = typeof terminalDetailMachine;
