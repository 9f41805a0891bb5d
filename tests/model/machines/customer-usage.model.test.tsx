// A customer's terminals page, /customer/terminals/{uuid} (customerUsage machine): its generated paths
// walked on the machine and through the page (the Assign Terminals dialog, which tells the page
// its lines changed, talks to a fake API), plus journeys pinned by hand.
import { screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { createActor, waitFor, type SnapshotFrom } from 'xstate';
import {
  ASSIGN_MESSAGES,
  CUSTOMER_USAGE_MESSAGES,
  CUSTOMER_USAGE_STATUS_OPTIONS,
  type CustomerDailyUsage,
  type UnassignTerminalPayload,
} from '../../../src/domain/customer-terminals';
import { lastTwelveMonths } from '../../../src/domain/terminals';
import {
  customerUsageMachine,
  type CustomerUsageData,
  type CustomerUsageOutcome,
  type CustomerUsageRequest,
  type UnassignOutcome,
  type UsageCustomerOutcome,
} from '../../../src/machines/customer-usage';
import { CUSTOMER_LOADING_TEXT, UNASSIGN_DIALOG_TITLE, UNASSIGNING_TEXT, USAGE_LOADING_TEXT } from '../../../src/ui/customer-terminals/CustomerTerminalsView';
import { usageRecord } from '../../fixtures/customer-terminals-client';
import { usageData } from '../../fixtures/customer-usage-data';
import { ok, refused, scriptedActors, type Answer } from '../../machines/scripted-actors';
import { defineModel, done, failed, type UiModel } from '../framework/model';
import { openPage, type PageScreen } from '../framework/screen';
import { modelSuite } from '../framework/suite';
import { customerPageAnswers, muteExpectedFetchLogs, FREE_LINE, HELD_LINE, PAGE_CUSTOMER, PAGE_PATH, pageRecords } from './customer-terminals-page';

const customer = PAGE_CUSTOMER;
// The route gives the page no `now`: its months are this month's twelve, here and on the page.
const months = lastTwelveMonths(new Date());
const day = (date: string, priorityGB: number): CustomerDailyUsage => ({ date, priorityGB, standardGB: 1.5 });
const usage: CustomerUsageData = usageData(pageRecords, [day('2026-11-01', 12.5)]);
// A page past the last comes back when rows went away between two requests. Walked on every path
// it would multiply them all for one guard: tests/machines/customer-usage.test.ts pins it.
const PAST_THE_END_REASON = 'a page past the last needs the rows to go away between two requests (pinned in tests/machines/customer-usage.test.ts)';
const PAST_THE_END = {
  'customerUsage.usage.loading: xstate.done.actor.loadUsage #1': PAST_THE_END_REASON,
  'customerUsage.usage.refreshing: xstate.done.actor.loadUsage #1': PAST_THE_END_REASON,
};

const retry = { type: 'user.retry' } as const;
const refresh = { type: 'user.refresh' } as const;
const confirm = { type: 'user.confirm' } as const;
const cancel = { type: 'user.cancel' } as const;
const changed = { type: 'terminals.changed' } as const;
const selectMonth = (value: string) => ({ type: 'user.selectMonth', value }) as const;
const unassign = (serviceLineNumber: string) => ({ type: 'user.unassign', serviceLineNumber }) as const;

type Snapshot = SnapshotFrom<typeof customerUsageMachine>;

const monthLabel = (value: string) => months.find((m) => m.value === value)!.label;
const table = () => screen.queryByRole('table', { name: 'Customer terminals' });
const unassignDialog = () => screen.queryByRole('dialog', { name: UNASSIGN_DIALOG_TITLE });
const pageButton = (name: string) => screen.getByRole('button', { name }) as HTMLButtonElement;
const statusLabel = (value: string) => CUSTOMER_USAGE_STATUS_OPTIONS.find((o) => o.value === value)!.label;
/** A customer that cannot be loaded leaves only the error card: no month, table or dialog. */
const customerFailed = (s: Snapshot) => s.matches({ customer: 'failed' });

/** The toolbar shows the table's search and filter as the machine holds them. */
function expectToolbar({ context }: Snapshot) {
  expect((screen.getByRole('searchbox', { name: 'Search terminals' }) as HTMLInputElement).value).toBe(context.searchInput);
  expect((screen.getByLabelText('Status filter') as HTMLInputElement).value).toBe(statusLabel(context.status));
  expect(screen.getByRole('combobox', { name: 'Month' }).textContent).toContain(monthLabel(context.month));
}

/** The page of rows the machine holds, the summary cards and the paginator. */
function expectRows({ context }: Snapshot) {
  const shown = within(table()!).queryAllByRole('button', { name: /^Unassign / }).map((b) => b.getAttribute('aria-label'));
  expect(shown).toEqual(context.records.map((r) => `${CUSTOMER_USAGE_MESSAGES.unassign} ${r.serviceLineNumber}`));
  if (context.records.length === 0) {
    expect(within(table()!).getByText((context.summary?.totalTerminals ?? 0) === 0 ? CUSTOMER_USAGE_MESSAGES.noTerminals : CUSTOMER_USAGE_MESSAGES.noMatches)).toBeTruthy();
  }
  const cards = within(screen.getByRole('group', { name: 'Usage summary' }));
  expect(cards.getByText('Total Terminals').closest('.stat-card')?.textContent).toContain(String(context.summary?.totalTerminals ?? 0));
  const pages = context.pagination?.pages ?? 0;
  expect(screen.queryByRole('button', { name: 'Page 2' }) !== null).toBe(pages >= 2);
  if (context.sort) expect(within(table()!).getByRole('columnheader', { name: /^Usage/ }).getAttribute('aria-sort')).toBe('ascending');
}

const ui = {
  open: async (seam) => {
    muteExpectedFetchLogs();
    const page = openPage(PAGE_PATH, seam, customerPageAnswers());
    await screen.findByText(CUSTOMER_LOADING_TEXT, {}, { timeout: 5000 });
    return page;
  },
  events: {
    'user.retry': async ({ user }) => user.click(pageButton('Try Again')),
    'user.selectMonth': async ({ user }, event) => {
      await user.click(screen.getByRole('combobox', { name: 'Month' }));
      await user.click(within(await screen.findByRole('listbox')).getByRole('option', { name: monthLabel(event.value) }));
    },
    'user.refresh': async ({ user }) => user.click(pageButton(CUSTOMER_USAGE_MESSAGES.refresh)),
    'user.searchInput': async ({ user }, event) => {
      const box = screen.getByRole('searchbox', { name: 'Search terminals' });
      await user.click(box);
      await user.clear(box);
      // Pasted: one input event, as the step is one event.
      if (event.value) await user.paste(event.value);
    },
    // The pause after typing is the clock the run advances; nothing on screen sends this alone.
    'searchBox.settled': async () => {
      throw new Error('searchBox.settled is raised by the machine when the typing pauses');
    },
    'user.page': async ({ user }, event) => user.click(screen.getByRole('button', { name: `Page ${event.page}` })),
    'user.status': async ({ user }, event) => {
      await user.click((screen.getByLabelText('Status filter') as HTMLElement).closest('.p-dropdown')!);
      await user.click(within(await screen.findByRole('listbox')).getByRole('option', { name: statusLabel(event.status) }));
    },
    // From no sort, the first click on a header sorts that column ascending.
    'user.sort': async ({ user }) => user.click(within(table()!).getByRole('columnheader', { name: /^Usage/ })),
    'user.unassign': async ({ user }, event) => user.click(pageButton(`${CUSTOMER_USAGE_MESSAGES.unassign} ${event.serviceLineNumber}`)),
    'user.confirm': async ({ user }) => user.click(within(unassignDialog()!).getByRole('button', { name: CUSTOMER_USAGE_MESSAGES.unassign })),
    'user.cancel': async ({ user }) => user.click(within(unassignDialog()!).getByRole('button', { name: 'Cancel' })),
    // The Assign Terminals dialog assigns a line and tells the page, which tells the machine.
    'terminals.changed': async ({ user }) => {
      await user.click(pageButton(ASSIGN_MESSAGES.button));
      const dialog = within(await screen.findByRole('dialog', { name: ASSIGN_MESSAGES.title }));
      await user.click(dialog.getByLabelText(ASSIGN_MESSAGES.inputLabel));
      await user.paste(FREE_LINE);
      await user.click(dialog.getByRole('button', { name: ASSIGN_MESSAGES.button }));
      await dialog.findByText(ASSIGN_MESSAGES.successTitle(1));
      await user.click(dialog.getByRole('button', { name: ASSIGN_MESSAGES.close }));
    },
  },
  states: {
    'customer.loading': () => {
      expect(screen.getByText(CUSTOMER_LOADING_TEXT)).toBeTruthy();
      expect(screen.queryByRole('button', { name: ASSIGN_MESSAGES.button })).toBeNull();
      expect(screen.queryByText(CUSTOMER_USAGE_MESSAGES.loadErrorTitle)).toBeNull();
    },
    'customer.loaded': () => {
      expect(screen.getByText(customer.name)).toBeTruthy();
      expect(screen.queryByText(CUSTOMER_LOADING_TEXT)).toBeNull();
      expect(pageButton(ASSIGN_MESSAGES.button).disabled).toBe(false);
    },
    'customer.failed': ({ context }) => {
      expect(screen.getByText(CUSTOMER_USAGE_MESSAGES.loadErrorTitle)).toBeTruthy();
      expect(screen.getByText(context.customerError!)).toBeTruthy();
      expect(pageButton('Try Again').disabled).toBe(false);
      expect(screen.queryByRole('button', { name: ASSIGN_MESSAGES.button })).toBeNull();
    },
    'usage.loading': (s) => {
      if (customerFailed(s)) return expect(screen.queryByText(USAGE_LOADING_TEXT)).toBeNull();
      expectToolbar(s);
      // Nothing of another month, or of before a change, shows under the spinner.
      expect(screen.getByText(USAGE_LOADING_TEXT)).toBeTruthy();
      expect(table()).toBeNull();
      expect(pageButton(CUSTOMER_USAGE_MESSAGES.refresh).disabled).toBe(true);
    },
    'usage.loaded': (s) => {
      if (customerFailed(s)) return expect(table()).toBeNull();
      expectToolbar(s);
      expect(screen.queryByText(USAGE_LOADING_TEXT)).toBeNull();
      expectRows(s);
      expect(pageButton(CUSTOMER_USAGE_MESSAGES.refresh).disabled).toBe(false);
    },
    'usage.refreshing': (s) => {
      if (customerFailed(s)) return expect(table()).toBeNull();
      expectToolbar(s);
      // The rows stay on screen while they reload.
      expectRows(s);
      expect(pageButton(CUSTOMER_USAGE_MESSAGES.refresh).disabled).toBe(true);
    },
    'searchBox.idle': (s) => {
      if (customerFailed(s)) return;
      expect((screen.getByRole('searchbox', { name: 'Search terminals' }) as HTMLInputElement).value.trim()).toBe(s.context.search);
    },
    'searchBox.debouncing': (s) => {
      if (customerFailed(s)) return;
      // Typed, not applied yet.
      expect((screen.getByRole('searchbox', { name: 'Search terminals' }) as HTMLInputElement).value).toBe(s.context.searchInput);
    },
    'unassign.idle': () => expect(unassignDialog()).toBeNull(),
    'unassign.confirming': (s) => {
      if (customerFailed(s)) return expect(unassignDialog()).toBeNull();
      const dialog = within(unassignDialog()!);
      expect(dialog.getByText(CUSTOMER_USAGE_MESSAGES.unassignConfirm(s.context.unassignTarget!, s.context.customer?.name ?? `Customer ${s.context.customerUuid.slice(-8)}`))).toBeTruthy();
      expect((dialog.getByRole('button', { name: CUSTOMER_USAGE_MESSAGES.unassign }) as HTMLButtonElement).disabled).toBe(false);
      expect((dialog.getByRole('button', { name: 'Cancel' }) as HTMLButtonElement).disabled).toBe(false);
    },
    'unassign.unassigning': (s) => {
      if (customerFailed(s)) return expect(unassignDialog()).toBeNull();
      const dialog = within(unassignDialog()!);
      expect((dialog.getByRole('button', { name: UNASSIGNING_TEXT }) as HTMLButtonElement).disabled).toBe(true);
      expect((dialog.getByRole('button', { name: 'Cancel' }) as HTMLButtonElement).disabled).toBe(true);
    },
  },
  drivable: (s, event) => {
    // The error card replaces the page: only its Try Again is left.
    if (customerFailed(s)) return event.type === 'user.retry';
    const { context } = s;
    switch (event.type) {
      // The month box, the search box and the filter report changes only.
      case 'user.selectMonth':
        return event.value !== context.month;
      // Typing into the box is always possible, the same text again too (clear, then paste).
      case 'user.searchInput':
        return true;
      // Raised by the machine, never sent from the screen.
      case 'searchBox.settled':
        return false;
      // The paginator sits under the table, once there is a second page.
      case 'user.page':
        return !s.matches({ usage: 'loading' }) && event.page !== context.page && (context.pagination?.pages ?? 0) >= event.page;
      case 'user.status':
        return event.status !== context.status;
      // The headers and the rows' Unassign buttons are in the table, which a loading month replaces.
      case 'user.sort':
        return !s.matches({ usage: 'loading' }) && context.sort === null;
      case 'user.unassign':
        return !s.matches({ usage: 'loading' }) && context.records.some((r) => r.serviceLineNumber === event.serviceLineNumber);
      // Assign Terminals is offered once the customer is loaded, and not behind the Unassign confirmation.
      case 'terminals.changed':
        return s.matches({ customer: 'loaded', unassign: 'idle' });
      default:
        return true;
    }
  },
} satisfies UiModel<typeof customerUsageMachine, PageScreen>;

export const customerUsageModel = defineModel<typeof customerUsageMachine, PageScreen>({
  name: 'customer-usage',
  machine: customerUsageMachine,
  input: { customerUuid: customer.uuid },
  events: {
    'user.retry': [retry],
    'user.selectMonth': [selectMonth(months[1]!.value)],
    'user.refresh': [refresh],
    // Each keeps the one row on screen, so it can still be unassigned.
    'user.searchInput': [{ type: 'user.searchInput', value: 'rotterdam' }],
    'searchBox.settled': [{ type: 'searchBox.settled' }],
    'user.status': [{ type: 'user.status', status: 'Active' }],
    'user.page': [{ type: 'user.page', page: 2 }],
    'user.sort': [{ type: 'user.sort', sort: { field: 'usage', order: 1 } }],
    'user.unassign': [unassign(HELD_LINE)],
    'user.confirm': [confirm],
    'user.cancel': [cancel],
    'terminals.changed': [changed],
  },
  // One answer per guarded branch of each invoke. Refusals carry no message, so a refusal and a
  // thrown error leave the same context.
  actorResults: [
    done('loadCustomer', ok(customer)),
    done('loadCustomer', refused('')),
    failed('loadCustomer', new Error('boom')),
    done('loadUsage', ok(usage)),
    done('loadUsage', refused('')),
    failed('loadUsage', new Error('boom')),
    done('unassignTerminal', ok({ serviceLineNumber: HELD_LINE, unassigned: ['UT-0001A2B3'] })),
    done('unassignTerminal', refused('')),
    failed('unassignTerminal', new Error('boom')),
  ],
  states: {
    'customer.loading': (s) => {
      expect(s.hasTag('loadingCustomer')).toBe(true);
      expect(s.context.customerError).toBeNull();
    },
    'customer.loaded': (s) => expect(s.context).toMatchObject({ customer, customerError: null }),
    'customer.failed': (s) => {
      expect(s.context).toMatchObject({ customer: null, customerError: CUSTOMER_USAGE_MESSAGES.loadFailed });
      expect(s.can(retry)).toBe(true);
    },
    'usage.loading': (s) => {
      expect(s.hasTag('loadingUsage')).toBe(true);
      // Nothing of another month, or of before a change, is kept under the spinner.
      expect(s.context.records).toEqual([]);
      expect(s.can(refresh)).toBe(false);
    },
    'usage.loaded': (s) => {
      expect(s.hasTag('loadingUsage') || s.hasTag('refreshingUsage')).toBe(false);
      // The month's rows, or none when its load failed (spec 8: no error shown).
      expect([[], usage.page.records]).toContainEqual(s.context.records);
      expect(s.can(refresh)).toBe(true);
    },
    'usage.refreshing': (s) => {
      expect(s.hasTag('refreshingUsage') && !s.hasTag('loadingUsage')).toBe(true);
      expect(s.can(refresh)).toBe(false);
    },
    'searchBox.idle': (s) => expect(s.context.searchInput.trim() === s.context.search || s.context.searchInput === 'rotterdam').toBe(true),
    'searchBox.debouncing': (s) => expect(s.context.searchInput).toBe('rotterdam'),
    'unassign.idle': (s) => {
      expect(s.context.unassignTarget).toBeNull();
      expect(s.hasTag('busy')).toBe(false);
    },
    'unassign.confirming': (s) => {
      expect(s.context.unassignTarget).toBe(HELD_LINE);
      expect(s.hasTag('busy')).toBe(false);
    },
    'unassign.unassigning': (s) => {
      expect(s.context.unassignTarget).toBe(HELD_LINE);
      expect(s.hasTag('busy')).toBe(true);
      expect(s.can(cancel)).toBe(false);
    },
  },
  ui,
  exclude: {
    machine: { transitions: PAST_THE_END },
    ui: { transitions: PAST_THE_END },
  },
});

modelSuite(customerUsageModel);

const NOW = new Date('2026-11-20T10:00:00.000Z');
const SL1 = 'AST-511274-31364-54';
const SL2 = 'AST-622190-48211-07';
const november: CustomerUsageData = usageData(
  [usageRecord({ used: 300, total: 1000 }), usageRecord({ used: 1100, total: 1000 }, { terminalId: 'UT-0002C4D5', serviceLineNumber: SL2 })],
  [day('2026-11-01', 12.5), day('2026-11-02', 9)],
);
const october: CustomerUsageData = usageData([usageRecord({ used: 80, total: 1000 })], [day('2026-10-01', 2)]);

interface Answers {
  customer?: Array<Answer<UsageCustomerOutcome>>;
  usage?: Array<Answer<CustomerUsageOutcome>>;
  unassign?: Array<Answer<UnassignOutcome>>;
}

function startPage(answers: Answers = {}) {
  const { calls, called, answer } = scriptedActors();
  const notifySuccess = vi.fn();
  const notifyFailure = vi.fn();
  const actor = createActor(
    customerUsageMachine.provide({
      actors: {
        loadCustomer: answer<UsageCustomerOutcome, string>('loadCustomer', answers.customer ?? [ok(customer)]),
        loadUsage: answer<CustomerUsageOutcome, CustomerUsageRequest>('loadUsage', answers.usage ?? [ok(november)]),
        unassignTerminal: answer<UnassignOutcome, UnassignTerminalPayload>('unassignTerminal', answers.unassign ?? [ok({ serviceLineNumber: SL1, unassigned: ['UT-0001A2B3'] })]),
      },
      actions: { notifySuccess: (_, message) => notifySuccess(message), notifyFailure: (_, message) => notifyFailure(message), terminalsChanged: () => {}, logUsageFailure: () => {} },
    }),
    { input: { customerUuid: customer.uuid, now: NOW } },
  ).start();
  return { actor, calls, called, notifySuccess, notifyFailure };
}

const settled = (s: Snapshot) => !s.hasTag('loadingCustomer') && !s.hasTag('loadingUsage') && !s.hasTag('refreshingUsage') && !s.hasTag('busy');

describe('customer usage machine (pinned journeys)', () => {
  // Pinned by hand: generated expectations would move with a wrong transition, these do not.
  it('customer fails then loads on Try Again, October is chosen, a line is unassigned: October reloaded without it', async () => {
    const octoberAfter: CustomerUsageData = usageData([], october.daily);
    const { actor, calls, notifySuccess } = startPage({
      customer: [refused('Customer not found'), ok(customer)],
      usage: [ok(november), ok(october), ok(octoberAfter)],
    });
    await waitFor(actor, settled);
    actor.send(retry);
    await waitFor(actor, settled);
    actor.send(selectMonth('2026-10'));
    await waitFor(actor, settled);
    actor.send(unassign(SL1));
    actor.send(confirm);
    await waitFor(actor, (s) => settled(s) && notifySuccess.mock.calls.length > 0);
    const snapshot = actor.getSnapshot();
    expect(snapshot.value).toEqual({ customer: 'loaded', usage: 'loaded', searchBox: 'idle', unassign: 'idle' });
    expect(snapshot.context).toMatchObject({ customer, customerError: null, month: '2026-10', records: [], daily: october.daily, unassignTarget: null });
    expect(calls.map((c) => c.name)).toEqual(['loadCustomer', 'loadUsage', 'loadCustomer', 'loadUsage', 'unassignTerminal', 'loadUsage']);
    expect(calls.filter((c) => c.name === 'loadUsage').map((c) => (c.input as CustomerUsageRequest).month)).toEqual([11, 10, 10]);
  });

  it('filters set while loading, a cancelled then a refused unassignment: rows, filters and page unchanged', async () => {
    const { actor, called, notifyFailure } = startPage({ usage: [ok(november), ok(november), ok(november)], unassign: [refused('Provider unavailable')] });
    actor.send({ type: 'user.status', status: 'Active' });
    actor.send({ type: 'user.searchInput', value: 'AST-5' });
    await waitFor(actor, (s) => settled(s) && s.matches({ searchBox: 'idle' }) && s.context.search === 'AST-5');
    actor.send(unassign(SL2));
    actor.send(cancel);
    actor.send(unassign(SL1));
    actor.send(confirm);
    await waitFor(actor, (s) => settled(s) && notifyFailure.mock.calls.length > 0);
    const snapshot = actor.getSnapshot();
    expect(snapshot.value).toEqual({ customer: 'loaded', usage: 'loaded', searchBox: 'idle', unassign: 'idle' });
    expect(snapshot.context).toMatchObject({ status: 'Active', search: 'AST-5', sort: null, records: november.page.records, unassignTarget: null });
    // The first load, the status while it ran (asked again), the search once the typing paused.
    expect(called('loadUsage').map((c) => [(c.input as CustomerUsageRequest).status, (c.input as CustomerUsageRequest).search])).toEqual([
      ['all', ''],
      ['Active', ''],
      ['Active', 'AST-5'],
    ]);
    expect(called('unassignTerminal').map((c) => c.input)).toEqual([{ customerUuid: customer.uuid, serviceLineNumber: SL1 }]);
    expect(notifyFailure).toHaveBeenCalledExactlyOnceWith('Failed to unassign terminal: Provider unavailable');
  });
});
