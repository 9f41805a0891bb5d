import { describe, expect, it, vi } from 'vitest';
import { createActor, SimulatedClock, waitFor, type SnapshotFrom } from 'xstate';
import {
  customerUsageMachine,
  type CustomerUsageData,
  type CustomerUsageInput,
  type CustomerUsageOutcome,
  type CustomerUsageRequest,
  type UnassignOutcome,
  type UsageCustomer,
  type UsageCustomerOutcome,
} from '../../src/machines/customer-usage';
import { CUSTOMER_USAGE_MESSAGES, type CustomerDailyUsage, type UnassignTerminalPayload } from '../../src/domain/customer-terminals';
import { TERMINAL_MESSAGES } from '../../src/domain/terminals';
import { NetworkError } from '../../src/api/client';
import { CUSTOMER_UUID, usageRecord } from '../fixtures/customer-terminals-client';
import { usageData } from '../fixtures/customer-usage-data';
import { ok, refused, scriptedActors, type Answer } from './scripted-actors';

const NOW = new Date('2026-11-20T10:00:00.000Z');
const customer: UsageCustomer = { uuid: CUSTOMER_UUID, name: 'Nina Park', company: 'Northwind Shipping', email: 'ops@northwind.example' };
const SL1 = 'AST-511274-31364-54';
const SL2 = 'AST-622190-48211-07';
const day = (date: string, priorityGB: number): CustomerDailyUsage => ({ date, priorityGB, standardGB: 1.5 });
const november: CustomerUsageData = usageData(
  [usageRecord({ used: 300, total: 1000 }), usageRecord({ used: 1100, total: 1000 }, { terminalId: 'UT-0002C4D5', serviceLineNumber: SL2 })],
  [day('2026-11-01', 12.5), day('2026-11-02', 9)],
);
const afterUnassign: CustomerUsageData = usageData([november.page.records[1]!], [day('2026-11-01', 4), day('2026-11-02', 3)]);
const october: CustomerUsageData = usageData([usageRecord({ used: 80, total: 1000 })], [day('2026-10-01', 2)]);
const unassigned = { serviceLineNumber: SL1, unassigned: ['UT-0001A2B3'] };


interface Answers {
  customer?: Array<Answer<UsageCustomerOutcome>>;
  usage?: Array<Answer<CustomerUsageOutcome>>;
  unassign?: Array<Answer<UnassignOutcome>>;
}

function openPage(answers: Answers = {}, input: Partial<CustomerUsageInput> = {}, clock?: SimulatedClock) {
  const { calls, called, answer } = scriptedActors();
  const notifySuccess = vi.fn();
  const notifyFailure = vi.fn();
  const terminalsChanged = vi.fn();
  const logUsageFailure = vi.fn();
  const actor = createActor(
    customerUsageMachine.provide({
      actors: {
        loadCustomer: answer<UsageCustomerOutcome, string>('loadCustomer', answers.customer ?? [ok(customer)]),
        loadUsage: answer<CustomerUsageOutcome, CustomerUsageRequest>('loadUsage', answers.usage ?? [ok(november)]),
        unassignTerminal: answer<UnassignOutcome, UnassignTerminalPayload>('unassignTerminal', answers.unassign ?? [ok(unassigned)]),
      },
      actions: {
        notifySuccess: (_, message) => notifySuccess(message),
        notifyFailure: (_, message) => notifyFailure(message),
        terminalsChanged: () => terminalsChanged(),
        logUsageFailure: (_, failure) => logUsageFailure(failure.reason),
      },
    }),
    { input: { customerUuid: CUSTOMER_UUID, now: NOW, ...input }, ...(clock ? { clock } : {}) },
  ).start();
  return { actor, calls, called, notifySuccess, notifyFailure, terminalsChanged, logUsageFailure };
}

type Snapshot = SnapshotFrom<typeof customerUsageMachine>;
const settled = (s: Snapshot) => !s.hasTag('loadingCustomer') && !s.hasTag('loadingUsage') && !s.hasTag('refreshingUsage') && !s.hasTag('busy');
const novemberRequest: CustomerUsageRequest = { customerUuid: CUSTOMER_UUID, year: 2026, month: 11, page: 1, limit: 25, search: '', status: 'all', sort: null };
const retry = { type: 'user.retry' } as const;
const refresh = { type: 'user.refresh' } as const;
const changed = { type: 'terminals.changed' } as const;
const confirm = { type: 'user.confirm' } as const;
const cancel = { type: 'user.cancel' } as const;
const selectMonth = (value: string) => ({ type: 'user.selectMonth', value }) as const;
const unassign = (serviceLineNumber: string) => ({ type: 'user.unassign', serviceLineNumber }) as const;

describe('customer usage machine: opening the page', () => {
  it('loads the customer and the current month side by side', async () => {
    const { actor, calls } = openPage();
    const first = actor.getSnapshot();
    expect(first.value).toEqual({ customer: 'loading', usage: 'loading', searchBox: 'idle', unassign: 'idle' });
    expect(first.hasTag('loadingCustomer') && first.hasTag('loadingUsage')).toBe(true);
    expect(first.context).toMatchObject({ month: '2026-11', search: '', status: 'all', sort: null, records: [], daily: [], customer: null });
    expect(first.context.months).toHaveLength(12);
    expect(first.context.months[0]).toEqual({ value: '2026-11', label: 'November 2026', year: 2026, month: 11 });
    const snapshot = await waitFor(actor, settled);
    expect(snapshot.value).toEqual({ customer: 'loaded', usage: 'loaded', searchBox: 'idle', unassign: 'idle' });
    expect(snapshot.context).toMatchObject({ customer, customerError: null, records: november.page.records, daily: november.daily });
    expect(calls.map((c) => [c.name, c.input])).toEqual([
      ['loadCustomer', CUSTOMER_UUID],
      ['loadUsage', novemberRequest],
    ]);
  });

  it('starts on the month it is given, or the current one when that month is not offered', async () => {
    expect(openPage({}, { month: '2026-1' }).actor.getSnapshot().context.month).toBe('2026-1');
    const { actor, called } = openPage({}, { month: '2025-11' });
    expect(actor.getSnapshot().context.month).toBe('2026-11');
    await waitFor(actor, settled);
    expect(called('loadUsage')[0]?.input).toEqual(novemberRequest);
  });
});

describe('customer usage machine: the customer', () => {
  it("a refused load shows the server's message; Try Again loads it, and only it, again", async () => {
    const { actor, called } = openPage({ customer: [refused('Customer not found'), ok(customer)] });
    const failed = await waitFor(actor, (s) => s.matches({ customer: 'failed' }));
    expect(failed.context).toMatchObject({ customer: null, customerError: 'Customer not found' });
    actor.send(retry);
    expect(actor.getSnapshot().hasTag('loadingCustomer')).toBe(true);
    expect(actor.getSnapshot().context.customerError).toBeNull();
    const loaded = await waitFor(actor, settled);
    expect(loaded.context).toMatchObject({ customer, customerError: null });
    expect(called('loadCustomer')).toHaveLength(2);
    expect(called('loadUsage')).toHaveLength(1);
  });

  it.each([
    ['a refusal without a message', refused(' ')],
    ['no answer', new NetworkError('fetch failed')],
    ['a bug', new TypeError('x is undefined')],
  ] as const)('%s says "Failed to load customer information"', async (_name, failure) => {
    const { actor } = openPage({ customer: [failure as Answer<UsageCustomerOutcome>] });
    const failed = await waitFor(actor, (s) => s.matches({ customer: 'failed' }));
    expect(failed.context.customerError).toBe(CUSTOMER_USAGE_MESSAGES.loadFailed);
  });

  it('Try Again means nothing once the customer is loaded', async () => {
    const { actor } = openPage();
    await waitFor(actor, settled);
    expect(actor.getSnapshot().can(retry)).toBe(false);
  });
});

describe('customer usage machine: the month of usage', () => {
  it.each([
    ['a refusal', refused('Usage store unavailable'), 'Usage store unavailable'],
    ['no answer', new NetworkError('fetch failed'), undefined],
  ] as const)('%s reads as no terminals, with no error shown (only logged)', async (_name, failure, logged) => {
    const { actor, logUsageFailure } = openPage({ usage: [ok(november), failure as Answer<CustomerUsageOutcome>] });
    await waitFor(actor, settled);
    actor.send(refresh);
    const snapshot = await waitFor(actor, settled);
    expect(snapshot.value).toEqual({ customer: 'loaded', usage: 'loaded', searchBox: 'idle', unassign: 'idle' });
    expect(snapshot.context).toMatchObject({ records: [], daily: [], customerError: null });
    expect(logUsageFailure).toHaveBeenCalledOnce();
    if (logged) expect(logUsageFailure).toHaveBeenCalledWith(logged);
    else expect(logUsageFailure.mock.calls[0]![0]).toBeInstanceOf(NetworkError);
  });

  it('choosing a month clears the rows of the last one and loads it', async () => {
    const { actor, called } = openPage({ usage: [ok(november), 'hang'] });
    await waitFor(actor, settled);
    actor.send(selectMonth('2026-10'));
    const snapshot = actor.getSnapshot();
    expect(snapshot.matches({ usage: 'loading' })).toBe(true);
    expect(snapshot.context).toMatchObject({ month: '2026-10', records: [], daily: [] });
    expect(called('loadUsage').at(-1)?.input).toEqual({ ...novemberRequest, month: 10 });
  });

  it('a month that is not offered is ignored', async () => {
    const { actor, called } = openPage();
    await waitFor(actor, settled);
    expect(actor.getSnapshot().can(selectMonth('2025-11'))).toBe(false);
    actor.send(selectMonth('2025-11'));
    expect(actor.getSnapshot().context).toMatchObject({ month: '2026-11', records: november.page.records });
    expect(called('loadUsage')).toHaveLength(1);
  });

  it('a month chosen while another loads aborts that load and shows the new one', async () => {
    const { actor, called } = openPage({ usage: ['hang', ok(october)] });
    actor.send(selectMonth('2026-10'));
    const [first, second] = called('loadUsage');
    expect(first?.signal.aborted).toBe(true);
    expect(second?.input).toEqual({ ...novemberRequest, month: 10 });
    const snapshot = await waitFor(actor, settled);
    expect(snapshot.context).toMatchObject({ month: '2026-10', records: october.page.records, daily: october.daily });
  });

  it('a month chosen during a refresh aborts the refresh', async () => {
    const { actor, called } = openPage({ usage: [ok(november), 'hang', ok(october)] });
    await waitFor(actor, settled);
    actor.send(refresh);
    actor.send(selectMonth('2026-10'));
    expect(called('loadUsage')[1]?.signal.aborted).toBe(true);
    expect((await waitFor(actor, settled)).context.records).toEqual(october.page.records);
  });

  it('Refresh keeps the rows on screen while they reload, then replaces them', async () => {
    const { actor, called } = openPage({ usage: [ok(november), ok(afterUnassign)] });
    await waitFor(actor, settled);
    actor.send(refresh);
    const refreshing = actor.getSnapshot();
    expect(refreshing.hasTag('refreshingUsage') && !refreshing.hasTag('loadingUsage')).toBe(true);
    expect(refreshing.context.records).toEqual(november.page.records);
    expect(refreshing.can(refresh)).toBe(false);
    expect((await waitFor(actor, settled)).context).toMatchObject({ records: afterUnassign.page.records, daily: afterUnassign.daily });
    expect(called('loadUsage').map((c) => c.input)).toEqual([novemberRequest, novemberRequest]);
  });

  it('lines assigned by the dialog reload the rows in place; a second change aborts the reload under way', async () => {
    const { actor, called } = openPage({ usage: [ok(november), 'hang', ok(afterUnassign)] });
    await waitFor(actor, settled);
    actor.send(changed);
    expect(actor.getSnapshot().matches({ usage: 'refreshing' })).toBe(true);
    actor.send(changed);
    expect(called('loadUsage')[1]?.signal.aborted).toBe(true);
    expect((await waitFor(actor, settled)).context.records).toEqual(afterUnassign.page.records);
    expect(called('loadUsage')).toHaveLength(3);
  });

  it('a change while the first load runs asks again, aborting that load', async () => {
    const { actor, called } = openPage({ usage: ['hang', ok(afterUnassign)] });
    expect(actor.getSnapshot().can(refresh)).toBe(false);
    actor.send(changed);
    expect(called('loadUsage')[0]?.signal.aborted).toBe(true);
    expect((await waitFor(actor, settled)).context.records).toEqual(afterUnassign.page.records);
  });

  it('a status (even while the month loads), a page and a sort reload the table, from its first page but for the page itself', async () => {
    const firstOfTwo = usageData(november.page.records, november.daily, { limit: 1 });
    const secondOfTwo = usageData(november.page.records, november.daily, { page: 2, limit: 1 });
    const { actor, called } = openPage({ usage: ['hang', ok(firstOfTwo), ok(secondOfTwo), 'hang', ok(october)] });
    // Sorting and paging need the table, which the loading month replaces; the status filter does not.
    expect(actor.getSnapshot().can({ type: 'user.sort', sort: { field: 'usage', order: 1 } })).toBe(false);
    expect(actor.getSnapshot().can({ type: 'user.page', page: 2 })).toBe(false);
    actor.send({ type: 'user.status', status: 'Suspended' });
    // The first load was still under way: it is asked again, with the status.
    expect(called('loadUsage')[0]?.signal.aborted).toBe(true);
    await waitFor(actor, settled);
    actor.send({ type: 'user.page', page: 2 });
    const refreshing = actor.getSnapshot();
    expect(refreshing.matches({ usage: 'refreshing' })).toBe(true);
    expect(refreshing.context).toMatchObject({ page: 2, records: firstOfTwo.page.records });
    expect((await waitFor(actor, settled)).context).toMatchObject({ page: 2, records: secondOfTwo.page.records, pagination: secondOfTwo.page.pagination });
    actor.send({ type: 'user.sort', sort: { field: 'usage', order: 1 } });
    actor.send({ type: 'user.sort', sort: { field: 'overage', order: -1 } });
    expect(called('loadUsage')[3]?.signal.aborted).toBe(true);
    const snapshot = await waitFor(actor, settled);
    expect(snapshot.context).toMatchObject({ status: 'Suspended', sort: { field: 'overage', order: -1 }, page: 1, records: october.page.records });
    expect(called('loadUsage').map((c) => c.input)).toEqual([
      novemberRequest,
      { ...novemberRequest, status: 'Suspended' },
      { ...novemberRequest, status: 'Suspended', page: 2 },
      { ...novemberRequest, status: 'Suspended', sort: { field: 'usage', order: 1 } },
      { ...novemberRequest, status: 'Suspended', sort: { field: 'overage', order: -1 } },
    ]);
  });

  it('the search applies once the typing pauses, trimmed, from the first page; the same search again asks nothing', async () => {
    const clock = new SimulatedClock();
    const { actor, called } = openPage({ usage: [ok(november), ok(october), ok(october)] }, {}, clock);
    await waitFor(actor, settled);
    actor.send({ type: 'user.page', page: 2 });
    await waitFor(actor, settled);
    actor.send({ type: 'user.searchInput', value: 'rott' });
    clock.increment(200);
    actor.send({ type: 'user.searchInput', value: ' rotterdam ' });
    clock.increment(299);
    expect(actor.getSnapshot().matches({ searchBox: 'debouncing' })).toBe(true);
    expect(called('loadUsage')).toHaveLength(2);
    clock.increment(1);
    expect(actor.getSnapshot().matches({ searchBox: 'idle', usage: 'refreshing' })).toBe(true);
    const snapshot = await waitFor(actor, settled);
    expect(snapshot.context).toMatchObject({ search: 'rotterdam', searchInput: ' rotterdam ', page: 1 });
    actor.send({ type: 'user.searchInput', value: 'rotterdam' });
    clock.increment(300);
    expect(called('loadUsage').map((c) => (c.input as CustomerUsageRequest).search)).toEqual(['', '', 'rotterdam']);
    expect(called('loadUsage').map((c) => (c.input as CustomerUsageRequest).page)).toEqual([1, 2, 1]);
  });

  it('a page past the last (lines went away meanwhile) asks for the last page instead', async () => {
    const pastTheEnd = usageData([], november.daily, { page: 3, limit: 1, total: 2 });
    const last = usageData(november.page.records, november.daily, { page: 2, limit: 1 });
    const { actor, called } = openPage({ usage: [ok(november), ok(pastTheEnd), ok(last)] });
    await waitFor(actor, settled);
    actor.send({ type: 'user.page', page: 3 });
    const snapshot = await waitFor(actor, settled);
    expect(snapshot.context).toMatchObject({ page: 2, records: last.page.records, pagination: last.page.pagination });
    expect(called('loadUsage').map((c) => (c.input as CustomerUsageRequest).page)).toEqual([1, 3, 2]);
  });

  it('the same page, or no page, asks nothing', async () => {
    const { actor, called } = openPage();
    await waitFor(actor, settled);
    for (const page of [1, 0, 1.5]) expect(actor.getSnapshot().can({ type: 'user.page', page })).toBe(false);
    expect(called('loadUsage')).toHaveLength(1);
  });

  it('keeps the summary cards and the pagination of the answer, and clears them with the month', async () => {
    const { actor } = openPage({ usage: [ok(november), 'hang'] });
    const loaded = await waitFor(actor, settled);
    expect(loaded.context).toMatchObject({ summary: november.page.summary, pagination: november.page.pagination });
    actor.send(selectMonth('2026-10'));
    expect(actor.getSnapshot().context).toMatchObject({ summary: null, pagination: null, records: [], page: 1 });
  });
});

describe('customer usage machine: unassigning a line', () => {
  it('asks for confirmation first; Cancel sends nothing', async () => {
    const { actor, called } = openPage();
    await waitFor(actor, settled);
    actor.send(unassign(SL1));
    expect(actor.getSnapshot().matches({ unassign: 'confirming' })).toBe(true);
    expect(actor.getSnapshot().context.unassignTarget).toBe(SL1);
    actor.send(cancel);
    expect(actor.getSnapshot().matches({ unassign: 'idle' })).toBe(true);
    expect(actor.getSnapshot().context.unassignTarget).toBeNull();
    expect(called('unassignTerminal')).toEqual([]);
  });

  it('a confirmed unassignment says so, tells the page and reloads the rows in place', async () => {
    const { actor, called, notifySuccess, notifyFailure, terminalsChanged } = openPage({
      usage: [ok(november), ok(afterUnassign)],
      unassign: ['hang'],
    });
    await waitFor(actor, settled);
    actor.send(unassign(SL1));
    actor.send(confirm);
    expect(actor.getSnapshot().hasTag('busy')).toBe(true);
    expect(actor.getSnapshot().can(cancel) || actor.getSnapshot().can(unassign(SL2))).toBe(false);
    expect(called('unassignTerminal').map((c) => c.input)).toEqual([{ customerUuid: CUSTOMER_UUID, serviceLineNumber: SL1 }]);

    const other = openPage({ usage: [ok(november), ok(afterUnassign)] });
    await waitFor(other.actor, settled);
    other.actor.send(unassign(SL1));
    other.actor.send(confirm);
    const reloading = await waitFor(other.actor, (s) => s.matches({ unassign: 'idle' }));
    expect(reloading.matches({ usage: 'refreshing' })).toBe(true);
    expect(reloading.context).toMatchObject({ unassignTarget: null, records: november.page.records });
    expect((await waitFor(other.actor, settled)).context.records).toEqual(afterUnassign.page.records);
    expect(other.notifySuccess).toHaveBeenCalledExactlyOnceWith(`Service line ${SL1} unassigned`);
    expect(other.terminalsChanged).toHaveBeenCalledOnce();
    expect(other.notifyFailure).not.toHaveBeenCalled();
    expect(notifySuccess).not.toHaveBeenCalled();
    expect(notifyFailure).not.toHaveBeenCalled();
    expect(terminalsChanged).not.toHaveBeenCalled();
  });

  it('a refusal says "Failed to unassign terminal: {message}"; without one, or with no answer, "Unknown error occurred"', async () => {
    const { actor, called, notifyFailure, notifySuccess, terminalsChanged } = openPage({
      unassign: [refused(CUSTOMER_USAGE_MESSAGES.notAssigned(SL1)), refused(''), new NetworkError('fetch failed')],
    });
    await waitFor(actor, settled);
    for (let attempt = 0; attempt < 3; attempt++) {
      actor.send(unassign(SL1));
      actor.send(confirm);
      await waitFor(actor, settled);
    }
    expect(notifyFailure.mock.calls.map(([m]) => m)).toEqual([
      `Failed to unassign terminal: Service line ${SL1} is not assigned to this customer`,
      `Failed to unassign terminal: ${TERMINAL_MESSAGES.unknownError}`,
      `Failed to unassign terminal: ${TERMINAL_MESSAGES.unknownError}`,
    ]);
    expect(actor.getSnapshot().context).toMatchObject({ unassignTarget: null, records: november.page.records });
    expect(notifySuccess).not.toHaveBeenCalled();
    expect(terminalsChanged).not.toHaveBeenCalled();
    expect(called('loadUsage')).toHaveLength(1);
  });

  it('leaving the page aborts every request under way', () => {
    const { actor, calls } = openPage({ customer: ['hang'], usage: ['hang'], unassign: ['hang'] });
    actor.send(unassign(SL1));
    actor.send(confirm);
    expect(calls.map((c) => c.signal.aborted)).toEqual([false, false, false]);
    actor.stop();
    expect(calls.map((c) => c.signal.aborted)).toEqual([true, true, true]);
  });
});
