/**
 * The customer terminal usage page, /customer/terminals/{uuid} (spec sections 2 "Customer
 * terminal usage", 8 "Customers"). Four independent regions. The table's search, status filter,
 * sort and page sit in context and go to the server with the month: a customer may hold thousands
 * of lines, so the server answers one page of rows and the summary cards over all of them.
 *
 *   customer.loading     the header's spinner; no Assign Terminals button yet   (tag: loadingCustomer)
 *   customer.loaded      the customer's name in the header, Assign Terminals offered
 *   customer.failed      "Error Loading Customer" with the message (`customerError`); Try Again
 *
 *   usage.loading        the month's table and chart loading, nothing of another month shown
 *                                                                              (tag: loadingUsage)
 *   usage.loaded         summary cards, a page of the table and the daily chart (all empty when
 *                        the load failed: spec 8 shows no error for usage)
 *   usage.refreshing     the rows stay on screen while they reload (a refresh, or a new search,
 *                        filter, sort or page)                                 (tag: refreshingUsage)
 *
 *   searchBox.idle       the search box shows the applied search
 *   searchBox.debouncing the user is typing; the search applies once they pause (searchDebounce)
 *
 *   unassign.idle        an Unassign button on each row
 *   unassign.confirming  the confirmation for `unassignTarget`
 *   unassign.unassigning the confirmation's buttons disabled                    (tag: busy)
 *
 * An unassigned line reloads the usage in place (`terminals.changed`, also sent by the page after
 * the Assign Terminals dialog assigned lines) and tells the page (`terminalsChanged`).
 */
import { assign, fromPromise, raise, setup } from 'xstate';
import type { Pagination } from '../domain/customers';
import {
  CUSTOMER_USAGE_MESSAGES,
  CUSTOMER_USAGE_PAGE_SIZE,
  type CustomerDailyUsage,
  type CustomerUsagePage,
  type CustomerUsagePageQuery,
  type CustomerUsageSort,
  type CustomerUsageSummary,
  type CustomerUsageStatusFilter,
  type TerminalUsageRecord,
  type UnassignTerminalPayload,
  type UnassignTerminalResult,
} from '../domain/customer-terminals';
import { TERMINAL_MESSAGES, lastTwelveMonths, parseMonthValue, type MonthOption } from '../domain/terminals';
import { SEARCH_DEBOUNCE_MS, searchBoxStates } from './list';
import type { LoadOutcome } from './resource';

export interface CustomerUsageInput {
  customerUuid: string;
  /** A month value such as '2025-3'; the current month when missing or not among the twelve. */
  month?: string;
  /** Today, for the month selector; the current time when missing. */
  now?: Date;
}

/** The page's header. */
export interface UsageCustomer {
  uuid: string;
  name: string;
  company: string;
  email: string;
}

export interface CustomerUsageData {
  page: CustomerUsagePage;
  daily: CustomerDailyUsage[];
}

/** The month's table as the page asks the server for it, and whose. */
export interface CustomerUsageRequest extends CustomerUsagePageQuery {
  customerUuid: string;
}

export interface CustomerUsageContext {
  customerUuid: string;
  /** The month selector's options, newest first. */
  months: MonthOption[];
  /** The selected month's value. */
  month: string;
  /** The applied search (trimmed), status filter, sort and 1-based page of the table. */
  search: string;
  status: CustomerUsageStatusFilter;
  sort: CustomerUsageSort | null;
  page: number;
  /** The search box as typed (applied to `search` once the typing pauses). */
  searchInput: string;
  /** The page of rows on screen. */
  records: TerminalUsageRecord[];
  /** Of the rows matching the search and filter; null before a load. */
  pagination: Pagination | null;
  /** The summary cards (every terminal of the customer); null before a load. */
  summary: CustomerUsageSummary | null;
  daily: CustomerDailyUsage[];
  customer: UsageCustomer | null;
  customerError: string | null;
  /** The service line being confirmed or unassigned. */
  unassignTarget: string | null;
}

export type CustomerUsageEvent =
  | { type: 'user.retry' }
  | { type: 'user.selectMonth'; value: string }
  | { type: 'user.refresh' }
  | { type: 'user.searchInput'; value: string }
  | { type: 'searchBox.settled' }
  | { type: 'user.status'; status: CustomerUsageStatusFilter }
  | { type: 'user.sort'; sort: CustomerUsageSort | null }
  | { type: 'user.page'; page: number }
  | { type: 'user.unassign'; serviceLineNumber: string }
  | { type: 'user.confirm' }
  | { type: 'user.cancel' }
  /** The customer's lines changed (sent by the page after an assignment, raised after an unassignment). */
  | { type: 'terminals.changed' };

export type UsageCustomerOutcome = LoadOutcome<UsageCustomer>;
export type CustomerUsageOutcome = LoadOutcome<CustomerUsageData>;
export type UnassignOutcome = LoadOutcome<UnassignTerminalResult>;

export function initialUsageContext(input: CustomerUsageInput): CustomerUsageContext {
  const months = lastTwelveMonths(input.now ?? new Date());
  const month = months.find((m) => m.value === input.month)?.value ?? months[0]!.value;
  return {
    customerUuid: input.customerUuid,
    months,
    month,
    search: '',
    status: 'all',
    sort: null,
    page: 1,
    searchInput: '',
    records: [],
    pagination: null,
    summary: null,
    daily: [],
    customer: null,
    customerError: null,
    unassignTarget: null,
  };
}

const unassignFailure = (message: string) => CUSTOMER_USAGE_MESSAGES.unassignFailed(message.trim() || TERMINAL_MESSAGES.unknownError);

const usageSetup = setup({
  types: {
    context: {} as CustomerUsageContext,
    events: {} as CustomerUsageEvent,
    input: {} as CustomerUsageInput,
  },
  actors: {
    /** Input: the customer's uuid. */
    loadCustomer: fromPromise<UsageCustomerOutcome, string>(async () => {
      throw new Error('loadCustomer is provided by the app');
    }),
    loadUsage: fromPromise<CustomerUsageOutcome, CustomerUsageRequest>(async () => {
      throw new Error('loadUsage is provided by the app');
    }),
    unassignTerminal: fromPromise<UnassignOutcome, UnassignTerminalPayload>(async () => {
      throw new Error('unassignTerminal is provided by the app');
    }),
  },
  actions: {
    storeCustomer: assign((_, outcome: UsageCustomerOutcome) => (outcome.ok ? { customer: outcome.data, customerError: null } : {})),
    storeCustomerError: assign((_, message: string) => ({ customer: null, customerError: message.trim() || CUSTOMER_USAGE_MESSAGES.loadFailed })),
    clearCustomerError: assign({ customerError: null }),
    storeMonth: assign((_, value: string) => ({ month: value, page: 1, records: [], pagination: null, summary: null, daily: [] })),
    storeUsage: assign((_, outcome: CustomerUsageOutcome) =>
      outcome.ok
        ? { records: outcome.data.page.records, pagination: outcome.data.page.pagination, summary: outcome.data.page.summary, daily: outcome.data.daily }
        : {},
    ),
    clearUsage: assign({ records: [], pagination: null, summary: null, daily: [] }),
    storeSearchInput: assign((_, value: string) => ({ searchInput: value })),
    settleSearchBox: raise({ type: 'searchBox.settled' }),
    takeSearch: assign(({ context }) => ({ search: context.searchInput.trim(), page: 1 })),
    storeStatus: assign((_, status: CustomerUsageStatusFilter) => ({ status, page: 1 })),
    storeSort: assign((_, sort: CustomerUsageSort | null) => ({ sort, page: 1 })),
    storePage: assign((_, page: number) => ({ page })),
    /** The page asked for is past the last (lines went away meanwhile): the last one instead. */
    takeLastPage: assign((_, outcome: CustomerUsageOutcome) => (outcome.ok ? { page: Math.max(1, outcome.data.page.pagination.pages) } : {})),
    storeUnassignTarget: assign((_, serviceLineNumber: string) => ({ unassignTarget: serviceLineNumber })),
    clearUnassignTarget: assign({ unassignTarget: null }),
    reloadUsage: raise({ type: 'terminals.changed' }),
    /** Spec 8 shows no error for usage; the reason is worth a log line. Gets the refusal message or the thrown error. */
    logUsageFailure: (_, _failure: { reason: unknown }) => {},
    /** The success toast. */
    notifySuccess: (_, _message: string) => {},
    /** The failure toast. */
    notifyFailure: (_, _message: string) => {},
    /** The customer's lines changed on the server: the page may refresh what else shows them. */
    terminalsChanged: () => {},
  },
  delays: {
    searchDebounce: SEARCH_DEBOUNCE_MS,
  },
  guards: {
    isLoaded: (_, outcome: LoadOutcome<unknown>) => outcome.ok,
    isPastLastPage: (_, outcome: CustomerUsageOutcome) =>
      outcome.ok && outcome.data.page.records.length === 0 && outcome.data.page.pagination.page > Math.max(1, outcome.data.page.pagination.pages),
    isOtherSearch: ({ context }) => context.searchInput.trim() !== context.search,
    isOtherPage: ({ context }, page: number) => Number.isInteger(page) && page >= 1 && page !== context.page,
    isOfferedMonth: ({ context }, value: string) => context.months.some((m) => m.value === value),
  },
});

const selectMonth = {
  // Choosing a month (even the same one again) asks for it; a load under way is superseded.
  guard: { type: 'isOfferedMonth', params: ({ event }: { event: { value: string } }) => event.value },
  target: '#customerUsage.usage.loading',
  reenter: true,
  actions: { type: 'storeMonth', params: ({ event }: { event: { value: string } }) => event.value },
} as const;
// A change while the month loads asks again: the request under way may predate it.
const reloadInPlace = { target: '#customerUsage.usage.refreshing', reenter: true } as const;
/**
 * The table's query changed: the month's usage loads again with it, from wherever the usage region
 * is (`to`). The toolbar's status and search may change at any time; the sort and the page only
 * where the table (its headers and paginator) is on screen, which a loading month replaces.
 */
function toolbarChanges<const T extends { target: string; reenter?: boolean }>(to: T) {
  return {
    'user.status': { ...to, actions: { type: 'storeStatus', params: ({ event }: { event: { status: CustomerUsageStatusFilter } }) => event.status } },
    'searchBox.settled': { ...to, guard: 'isOtherSearch', actions: 'takeSearch' },
  } as const;
}

function tableChanges<const T extends { target: string; reenter?: boolean }>(to: T) {
  return {
    ...toolbarChanges(to),
    'user.sort': { ...to, actions: { type: 'storeSort', params: ({ event }: { event: { sort: CustomerUsageSort | null } }) => event.sort } },
    'user.page': {
      ...to,
      guard: { type: 'isOtherPage', params: ({ event }: { event: { page: number } }) => event.page },
      actions: { type: 'storePage', params: ({ event }: { event: { page: number } }) => event.page },
    },
  } as const;
}

/** The table the context shows, as the usage page request (and the export of it) asks for it. */
export function usageRequestOf(context: CustomerUsageContext): CustomerUsageRequest {
  const { year, month } = parseMonthValue(context.month)!;
  const { page, search, status, sort } = context;
  return { customerUuid: context.customerUuid, year, month, page, limit: CUSTOMER_USAGE_PAGE_SIZE, search, status, sort };
}

const usageInvoke = {
  id: 'loadUsage',
  src: 'loadUsage',
  input: ({ context }: { context: CustomerUsageContext }): CustomerUsageRequest => usageRequestOf(context),
  onDone: [
    {
      guard: { type: 'isPastLastPage', params: ({ event }: { event: { output: CustomerUsageOutcome } }) => event.output },
      target: 'refreshing',
      reenter: true,
      actions: { type: 'takeLastPage', params: ({ event }: { event: { output: CustomerUsageOutcome } }) => event.output },
    },
    {
      guard: { type: 'isLoaded', params: ({ event }: { event: { output: CustomerUsageOutcome } }) => event.output },
      target: 'loaded',
      actions: { type: 'storeUsage', params: ({ event }: { event: { output: CustomerUsageOutcome } }) => event.output },
    },
    // Spec 8: a failed usage load reads as no terminals, with no error on screen.
    {
      target: 'loaded',
      actions: [
        'clearUsage',
        { type: 'logUsageFailure', params: ({ event }: { event: { output: CustomerUsageOutcome } }) => ({ reason: event.output.ok ? '' : event.output.message }) },
      ],
    },
  ],
  onError: {
    target: 'loaded',
    actions: [
      'clearUsage',
      { type: 'logUsageFailure', params: ({ event }: { event: { error: unknown } }) => ({ reason: event.error }) },
    ],
  },
} as const;

export const customerUsageMachine = usageSetup.createMachine({
  id: 'customerUsage',
  context: ({ input }) => initialUsageContext(input),
  type: 'parallel',
  states: {
    customer: {
      initial: 'loading',
      states: {
        loading: {
          tags: ['loadingCustomer'],
          entry: 'clearCustomerError',
          invoke: {
            id: 'loadCustomer',
            src: 'loadCustomer',
            input: ({ context }) => context.customerUuid,
            onDone: [
              {
                guard: { type: 'isLoaded', params: ({ event }) => event.output },
                target: 'loaded',
                actions: { type: 'storeCustomer', params: ({ event }) => event.output },
              },
              { target: 'failed', actions: { type: 'storeCustomerError', params: ({ event }) => (event.output.ok ? '' : event.output.message) } },
            ],
            onError: { target: 'failed', actions: { type: 'storeCustomerError', params: '' } },
          },
        },
        loaded: {},
        failed: { on: { 'user.retry': 'loading' } },
      },
    },

    usage: {
      initial: 'loading',
      states: {
        loading: {
          tags: ['loadingUsage'],
          on: { 'user.selectMonth': selectMonth, 'terminals.changed': { target: 'loading', reenter: true }, ...toolbarChanges({ target: 'loading', reenter: true }) },
          invoke: usageInvoke,
        },
        loaded: {
          on: { 'user.selectMonth': selectMonth, 'user.refresh': 'refreshing', 'terminals.changed': 'refreshing', ...tableChanges({ target: 'refreshing' }) },
        },
        refreshing: {
          tags: ['refreshingUsage'],
          on: { 'user.selectMonth': selectMonth, 'terminals.changed': reloadInPlace, ...tableChanges(reloadInPlace) },
          invoke: usageInvoke,
        },
      },
    },

    searchBox: {
      initial: 'idle',
      states: searchBoxStates,
    },

    unassign: {
      initial: 'idle',
      states: {
        idle: {
          on: {
            'user.unassign': {
              target: 'confirming',
              actions: { type: 'storeUnassignTarget', params: ({ event }) => event.serviceLineNumber },
            },
          },
        },
        confirming: {
          on: { 'user.confirm': 'unassigning', 'user.cancel': { target: 'idle', actions: 'clearUnassignTarget' } },
        },
        unassigning: {
          tags: ['busy'],
          invoke: {
            id: 'unassignTerminal',
            src: 'unassignTerminal',
            input: ({ context }) => ({ customerUuid: context.customerUuid, serviceLineNumber: context.unassignTarget! }),
            onDone: [
              {
                guard: { type: 'isLoaded', params: ({ event }) => event.output },
                target: 'idle',
                actions: [
                  { type: 'notifySuccess', params: ({ context }) => CUSTOMER_USAGE_MESSAGES.unassigned(context.unassignTarget!) },
                  'terminalsChanged',
                  'reloadUsage',
                  'clearUnassignTarget',
                ],
              },
              {
                target: 'idle',
                actions: [
                  { type: 'notifyFailure', params: ({ event }) => unassignFailure(event.output.ok ? '' : event.output.message) },
                  'clearUnassignTarget',
                ],
              },
            ],
            onError: { target: 'idle', actions: [{ type: 'notifyFailure', params: unassignFailure('') }, 'clearUnassignTarget'] },
          },
        },
      },
    },
  },
});

export type CustomerUsageMachine = typeof customerUsageMachine;
