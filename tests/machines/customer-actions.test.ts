import { describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import {
  CUSTOMER_ACTION_MESSAGES,
  blockReasonProblem,
  customerActionsMachine,
  validateEditCustomer,
  type BlockRequest,
  type BlockResult,
  type CustomerDetail,
  type CustomerResult,
  type DoneResult,
} from '../../src/machines/customer-actions';
import {
  CUSTOMER_LINE_ENDING_MESSAGES,
  CUSTOMER_MESSAGES,
  blockedLinesNotices,
  type CustomerLineEnding,
  type CustomerListItem,
  type UpdateCustomerPayload,
} from '../../src/domain/customers';
import type { LoadOutcome } from '../../src/machines/resource';
import { customerFixture } from '../fixtures/customers';

const customer = customerFixture({ phone: '+1 555 0100', accountExpiresAt: '2027-06-01T00:00:00.000Z', lastLogin: '2026-11-20T10:00:00.000Z' });
const blocked: CustomerListItem = { ...customer, blockedEnabled: true, blockedReason: 'Unpaid invoices', blockedAt: '2026-11-21T09:00:00.000Z' };
const activity = [{ id: 'a1', action: 'customer.login', description: 'Nina Park signed in', actorName: 'Nina Park', createdAt: '2026-11-20T10:00:00.000Z' }];

const ok = <T>(data: T): { ok: true; status: number; data: T; message: string } => ({ ok: true, status: 200, data, message: 'ok' });
const refused = (status: number, message: string, errors?: { path: string; message: string }[]) => ({
  ok: false as const,
  status,
  message,
  ...(errors ? { errors } : {}),
});

type Answer<T> = T | Error | 'hang';
interface Answers {
  detail?: Array<Answer<LoadOutcome<CustomerDetail>>>;
  update?: Array<Answer<CustomerResult>>;
  extend?: Array<Answer<CustomerResult>>;
  resend?: Array<Answer<DoneResult>>;
  block?: Array<Answer<BlockResult>>;
  unblock?: Array<Answer<CustomerResult>>;
}

/** As the page starts it for a portal user with the admin role unless told otherwise. */
function startActions(answers: Answers = {}, input = { canEndLines: true }) {
  const calls: Array<[string, unknown]> = [];
  const notifySuccess = vi.fn();
  const notifyFailure = vi.fn();
  const customerChanged = vi.fn();
  const answer = <T, I>(name: string, list: Array<Answer<T>> | undefined, fallback: T) =>
    fromPromise<T, I>(async ({ input }) => {
      calls.push([name, input]);
      const all = list ?? [fallback];
      const made = calls.filter(([n]) => n === name).length;
      const next = all[Math.min(made - 1, all.length - 1)]!;
      if (next === 'hang') return new Promise<never>(() => {});
      if (next instanceof Error) throw next;
      return next;
    });
  const actor = createActor(
    customerActionsMachine.provide({
      actors: {
        loadDetail: answer<LoadOutcome<CustomerDetail>, string>('loadDetail', answers.detail, { ok: true, data: { customer, activity } }),
        updateCustomer: answer<CustomerResult, { uuid: string; payload: UpdateCustomerPayload }>('updateCustomer', answers.update, ok(customer)),
        extendAccount: answer<CustomerResult, { uuid: string; days: number }>(
          'extendAccount',
          answers.extend,
          ok({ ...customer, accountExpiresAt: '2027-08-30T00:00:00.000Z' }),
        ),
        resendLink: answer<DoneResult, string>('resendLink', answers.resend, ok({})),
        blockCustomer: answer<BlockResult, BlockRequest>('blockCustomer', answers.block, ok({ customer: blocked, lineEndings: [] })),
        unblockCustomer: answer<CustomerResult, string>('unblockCustomer', answers.unblock, ok(customer)),
      },
      actions: {
        notifySuccess: (_, message) => notifySuccess(message),
        notifyFailure: (_, message) => notifyFailure(message),
        customerChanged: () => customerChanged(),
      },
    }),
    { input },
  ).start();
  return { actor, calls, notifySuccess, notifyFailure, customerChanged };
}

describe('customer actions machine: View Details', () => {
  it("shows the row at once, then the fresh details and the customer's activity", async () => {
    const fresh = { ...customer, lastLogin: '2026-11-22T08:00:00.000Z' };
    const { actor, calls } = startActions({ detail: [{ ok: true, data: { customer: fresh, activity } }] });
    actor.send({ type: 'user.view', customer });
    expect(actor.getSnapshot().hasTag('loadingDetail')).toBe(true);
    expect(actor.getSnapshot().context.customer).toBe(customer);
    const snapshot = await waitFor(actor, (s) => s.matches({ viewing: 'loaded' }));
    expect(snapshot.context).toMatchObject({ customer: fresh, activity });
    expect(calls).toEqual([['loadDetail', customer.uuid]]);
    actor.send({ type: 'user.close' });
    expect(actor.getSnapshot().value).toBe('closed');
  });

  it('a failed detail load says so and Try Again loads again', async () => {
    const { actor } = startActions({ detail: [{ ok: false, message: 'Not found' }, new Error('boom'), { ok: true, data: { customer, activity: null } }] });
    actor.send({ type: 'user.view', customer });
    expect((await waitFor(actor, (s) => s.matches({ viewing: 'failed' }))).context.detailError).toBe(CUSTOMER_ACTION_MESSAGES.detailFailed);
    actor.send({ type: 'user.retry' });
    expect(actor.getSnapshot().context.detailError).toBeNull();
    await waitFor(actor, (s) => s.matches({ viewing: 'failed' }));
    actor.send({ type: 'user.retry' });
    expect((await waitFor(actor, (s) => s.matches({ viewing: 'loaded' }))).context.activity).toBeNull();
  });
});

describe('customer actions machine: Edit Customer', () => {
  it('starts from the row, saves the trimmed form (empty phone or address as null), and refreshes the list', async () => {
    const { actor, calls, notifySuccess, customerChanged } = startActions({ update: [ok({ ...customer, name: 'Nina Park-Lee' })] });
    actor.send({ type: 'user.edit', customer });
    expect(actor.getSnapshot().context.form).toEqual({
      name: 'Nina Park',
      email: 'ops@northwind.example',
      company: 'Northwind Shipping',
      phone: '+1 555 0100',
      address: '',
    });
    actor.send({ type: 'user.field', field: 'name', value: ' Nina Park-Lee ' });
    actor.send({ type: 'user.field', field: 'phone', value: '  ' });
    actor.send({ type: 'user.submit' });
    expect(actor.getSnapshot().hasTag('busy')).toBe(true);
    expect(actor.getSnapshot().can({ type: 'user.close' })).toBe(false);
    await waitFor(actor, (s) => s.matches('closed'));
    expect(calls).toEqual([
      [
        'updateCustomer',
        {
          uuid: customer.uuid,
          payload: { name: 'Nina Park-Lee', email: 'ops@northwind.example', company: 'Northwind Shipping', phone: null, address: null },
        },
      ],
    ]);
    expect(notifySuccess).toHaveBeenCalledWith('Nina Park-Lee has been updated');
    expect(customerChanged).toHaveBeenCalledOnce();
  });

  it('client rules stop the save and a field error clears when that field is edited', () => {
    const { actor, calls } = startActions();
    actor.send({ type: 'user.edit', customer });
    actor.send({ type: 'user.field', field: 'email', value: 'nope' });
    actor.send({ type: 'user.field', field: 'company', value: '' });
    actor.send({ type: 'user.submit' });
    expect(actor.getSnapshot().context.errors).toEqual({ company: CUSTOMER_MESSAGES.companyRequired, email: CUSTOMER_MESSAGES.emailInvalid });
    actor.send({ type: 'user.field', field: 'email', value: 'nope@' });
    expect(actor.getSnapshot().context.errors.email).toBeUndefined();
    expect(actor.getSnapshot().context.errors.company).toBe(CUSTOMER_MESSAGES.companyRequired);
    expect(calls).toEqual([]);
  });

  it("a duplicate email (409) and the server's field errors (400) land on their fields; other failures say why", async () => {
    const { actor, notifyFailure, customerChanged } = startActions({
      update: [
        refused(409, 'A customer with this email address already exists'),
        refused(400, 'Invalid body', [{ path: 'body.phone', message: 'Phone must be at most 40 characters' }]),
        refused(500, 'Database unavailable'),
        new TypeError('fetch failed'),
      ],
    });
    actor.send({ type: 'user.edit', customer });
    const results: Array<[unknown, unknown]> = [];
    for (let attempt = 0; attempt < 4; attempt++) {
      actor.send({ type: 'user.submit' });
      const s = await waitFor(actor, (snap) => snap.matches({ editing: 'idle' }));
      results.push([s.context.errors, s.context.failure]);
    }
    expect(results).toEqual([
      [{ email: 'A customer with this email address already exists' }, null],
      [{ phone: 'Phone must be at most 40 characters' }, null],
      [{}, 'Failed to update customer: Database unavailable'],
      [{}, 'Failed to update customer. Please try again.'],
    ]);
    expect(notifyFailure).toHaveBeenCalledTimes(4);
    expect(customerChanged).not.toHaveBeenCalled();
  });
});

describe('customer actions machine: Account Settings', () => {
  it('extends by the chosen days, shows the new date, keeps the dialog open, and can resend the link', async () => {
    const { actor, calls, notifySuccess, customerChanged } = startActions();
    actor.send({ type: 'user.settings', customer });
    expect(actor.getSnapshot().context.days).toBe(365);
    actor.send({ type: 'user.days', days: 90 });
    actor.send({ type: 'user.extend' });
    expect(actor.getSnapshot().hasTag('busy')).toBe(true);
    const extended = await waitFor(actor, (s) => s.matches({ settings: 'idle' }));
    expect(extended.context.extended).toEqual({ days: 90, until: '2027-08-30T00:00:00.000Z' });
    expect(extended.context.customer?.accountExpiresAt).toBe('2027-08-30T00:00:00.000Z');
    expect(notifySuccess).toHaveBeenLastCalledWith('Account extended by 90 days');
    expect(customerChanged).toHaveBeenCalledOnce();

    actor.send({ type: 'user.resendLink' });
    await waitFor(actor, (s) => s.matches({ settings: 'idle' }));
    expect(notifySuccess).toHaveBeenLastCalledWith(`Password setup link sent to ${customer.email}`);
    expect(calls.map(([name, input]) => [name, input])).toEqual([
      ['extendAccount', { uuid: customer.uuid, days: 90 }],
      ['resendLink', customer.uuid],
    ]);
  });

  it('failures keep the dialog open with the reason', async () => {
    const { actor, notifyFailure } = startActions({ extend: [refused(404, 'Customer not found')], resend: [new TypeError('offline')] });
    actor.send({ type: 'user.settings', customer });
    actor.send({ type: 'user.extend' });
    expect((await waitFor(actor, (s) => s.matches({ settings: 'idle' }) && !!s.context.failure)).context.failure).toBe(
      'Failed to extend the account: Customer not found',
    );
    actor.send({ type: 'user.resendLink' });
    expect(actor.getSnapshot().context.failure).toBeNull();
    expect((await waitFor(actor, (s) => s.matches({ settings: 'idle' }) && !!s.context.failure)).context.failure).toBe(
      'Failed to send the password setup link. Please try again.',
    );
    expect(notifyFailure).toHaveBeenCalledTimes(2);
  });
});

describe('customer actions machine: Block and Unblock', () => {
  it('blocking asks for a reason, then confirms, then blocks with the trimmed reason', async () => {
    const { actor, calls, notifySuccess, customerChanged } = startActions();
    actor.send({ type: 'user.block', customer });
    actor.send({ type: 'user.submit' });
    expect(actor.getSnapshot().context.reasonError).toBe(CUSTOMER_MESSAGES.blockReasonRequired);
    actor.send({ type: 'user.reason', value: '  Unpaid invoices ' });
    expect(actor.getSnapshot().context.reasonError).toBeNull();
    actor.send({ type: 'user.submit' });
    expect(actor.getSnapshot().matches({ blocking: 'confirming' })).toBe(true);
    actor.send({ type: 'user.back' });
    expect(actor.getSnapshot().context.reason).toBe('  Unpaid invoices ');
    actor.send({ type: 'user.submit' });
    actor.send({ type: 'user.confirm' });
    await waitFor(actor, (s) => s.matches('closed'));
    expect(calls).toEqual([['blockCustomer', { uuid: customer.uuid, reason: 'Unpaid invoices', endLines: false }]]);
    expect(notifySuccess).toHaveBeenCalledWith('Nina Park has been blocked');
    expect(customerChanged).toHaveBeenCalledOnce();
  });

  it('a reason over 500 characters is refused', () => {
    const { actor } = startActions();
    actor.send({ type: 'user.block', customer });
    actor.send({ type: 'user.reason', value: 'x'.repeat(501) });
    actor.send({ type: 'user.submit' });
    expect(actor.getSnapshot().context.reasonError).toBe('Block reason must be at most 500 characters');
  });

  it('a refused block goes back to the reason as typed, with the failure', async () => {
    const { actor, notifyFailure } = startActions({ block: [refused(404, 'Customer not found')] });
    actor.send({ type: 'user.block', customer });
    actor.send({ type: 'user.reason', value: 'Fraud' });
    actor.send({ type: 'user.submit' });
    actor.send({ type: 'user.confirm' });
    const snapshot = await waitFor(actor, (s) => s.matches({ blocking: 'reason' }));
    expect(snapshot.context).toMatchObject({ reason: 'Fraud', failure: 'Failed to block customer: Customer not found' });
    expect(notifyFailure).toHaveBeenCalledWith('Failed to block customer: Customer not found');
  });

  it('unblocking confirms first; a blocked customer cannot be blocked again nor an active one unblocked', async () => {
    const { actor, calls, notifySuccess } = startActions();
    actor.send({ type: 'user.block', customer: blocked });
    actor.send({ type: 'user.unblock', customer });
    expect(actor.getSnapshot().value).toBe('closed');
    actor.send({ type: 'user.unblock', customer: blocked });
    expect(actor.getSnapshot().matches({ unblocking: 'confirming' })).toBe(true);
    actor.send({ type: 'user.confirm' });
    await waitFor(actor, (s) => s.matches('closed'));
    expect(calls).toEqual([['unblockCustomer', blocked.uuid]]);
    expect(notifySuccess).toHaveBeenCalledWith('Nina Park has been unblocked');
  });
});

describe('customer actions machine: Block and end their service lines', () => {
  const line = (serviceLineNumber: string, outcome: CustomerLineEnding['outcome'], message?: string): CustomerLineEnding => ({
    serviceLineNumber,
    outcome,
    ...(message ? { message } : {}),
  });

  it('an admin ticks the option; the block asks for it, then toasts how many lines will end and each line that could not', async () => {
    const endings = [
      line('AST-1', 'scheduled'),
      line('AST-2', 'scheduled'),
      line('AST-3', 'already_ending'),
      line('AST-4', 'failed', 'Service line AST-4 is not active'),
    ];
    const { actor, calls, notifySuccess, notifyFailure, customerChanged } = startActions({ block: [ok({ customer: blocked, lineEndings: endings })] });
    actor.send({ type: 'user.block', customer });
    expect(actor.getSnapshot().context.endLines).toBe(false);
    expect(actor.getSnapshot().can({ type: 'user.endLines', value: true })).toBe(true);
    actor.send({ type: 'user.endLines', value: true });
    actor.send({ type: 'user.reason', value: 'Chargeback' });
    actor.send({ type: 'user.submit' });
    expect(actor.getSnapshot().matches({ blocking: 'confirming' })).toBe(true);
    expect(actor.getSnapshot().context.endLines).toBe(true);
    // The option is the reason step's: confirming only shows it.
    expect(actor.getSnapshot().can({ type: 'user.endLines', value: false })).toBe(false);
    actor.send({ type: 'user.confirm' });
    await waitFor(actor, (s) => s.matches('closed'));
    expect(calls).toEqual([['blockCustomer', { uuid: customer.uuid, reason: 'Chargeback', endLines: true }]]);
    expect(actor.getSnapshot().context.customer).toEqual(blocked);
    expect(notifySuccess.mock.calls).toEqual([['Nina Park has been blocked; 2 service lines will end at the end of the billing cycle. 1 service line was already set to end']]);
    expect(notifyFailure.mock.calls).toEqual([['Service line AST-4 could not be set to end: Service line AST-4 is not active']]);
    expect(customerChanged).toHaveBeenCalledOnce();
  });

  it('with the option and no active lines it says there was nothing to end, and no failure', async () => {
    const { actor, notifySuccess, notifyFailure } = startActions();
    actor.send({ type: 'user.block', customer });
    actor.send({ type: 'user.reason', value: 'Fraud' });
    actor.send({ type: 'user.endLines', value: true });
    actor.send({ type: 'user.submit' });
    actor.send({ type: 'user.confirm' });
    await waitFor(actor, (s) => s.matches('closed'));
    expect(notifySuccess.mock.calls).toEqual([[CUSTOMER_LINE_ENDING_MESSAGES.blockedNoLines('Nina Park')]]);
    expect(notifyFailure).not.toHaveBeenCalled();
  });

  it('unticked again, the block goes without it and toasts as a plain block; the next block dialog starts unticked', async () => {
    const { actor, calls, notifySuccess } = startActions({ block: [ok({ customer: blocked, lineEndings: [] })] });
    actor.send({ type: 'user.block', customer });
    actor.send({ type: 'user.endLines', value: true });
    actor.send({ type: 'user.endLines', value: false });
    actor.send({ type: 'user.reason', value: 'Fraud' });
    actor.send({ type: 'user.submit' });
    actor.send({ type: 'user.confirm' });
    await waitFor(actor, (s) => s.matches('closed'));
    expect(calls).toEqual([['blockCustomer', { uuid: customer.uuid, reason: 'Fraud', endLines: false }]]);
    expect(notifySuccess).toHaveBeenCalledWith('Nina Park has been blocked');

    actor.send({ type: 'user.block', customer });
    actor.send({ type: 'user.endLines', value: true });
    actor.send({ type: 'user.close' });
    actor.send({ type: 'user.block', customer });
    expect(actor.getSnapshot().context.endLines).toBe(false);
  });

  it('a refused block goes back to the reason with the option still ticked, and the retry asks for it again', async () => {
    const { actor, calls, notifyFailure } = startActions({ block: [refused(403, 'Only portal users with the admin role can do this.'), ok({ customer: blocked, lineEndings: [] })] });
    actor.send({ type: 'user.block', customer });
    actor.send({ type: 'user.reason', value: 'Fraud' });
    actor.send({ type: 'user.endLines', value: true });
    actor.send({ type: 'user.submit' });
    actor.send({ type: 'user.confirm' });
    const back = await waitFor(actor, (s) => s.matches({ blocking: 'reason' }));
    expect(back.context).toMatchObject({ endLines: true, failure: 'Failed to block customer: Only portal users with the admin role can do this.' });
    expect(notifyFailure).toHaveBeenCalledOnce();
    actor.send({ type: 'user.submit' });
    actor.send({ type: 'user.confirm' });
    await waitFor(actor, (s) => s.matches('closed'));
    expect(calls.map(([, input]) => (input as BlockRequest).endLines)).toEqual([true, true]);
  });

  it('is not offered to a portal user without the admin role: the option does nothing and the block goes without it', async () => {
    const { actor, calls, notifySuccess } = startActions({}, { canEndLines: false });
    actor.send({ type: 'user.block', customer });
    expect(actor.getSnapshot().context.canEndLines).toBe(false);
    expect(actor.getSnapshot().can({ type: 'user.endLines', value: true })).toBe(false);
    actor.send({ type: 'user.endLines', value: true });
    expect(actor.getSnapshot().context.endLines).toBe(false);
    actor.send({ type: 'user.reason', value: 'Fraud' });
    actor.send({ type: 'user.submit' });
    actor.send({ type: 'user.confirm' });
    await waitFor(actor, (s) => s.matches('closed'));
    expect(calls).toEqual([['blockCustomer', { uuid: customer.uuid, reason: 'Fraud', endLines: false }]]);
    expect(notifySuccess).toHaveBeenCalledWith('Nina Park has been blocked');
  });
});

describe('the toasts after a block that ended lines', () => {
  it('count the lines set to end, one and none read as such, and add those already ending', () => {
    expect(blockedLinesNotices('Nina Park', [{ serviceLineNumber: 'A', outcome: 'scheduled' }])).toEqual({
      success: 'Nina Park has been blocked; 1 service line will end at the end of the billing cycle',
      failure: null,
    });
    expect(
      blockedLinesNotices('Nina Park', [
        { serviceLineNumber: 'A', outcome: 'already_ending' },
        { serviceLineNumber: 'B', outcome: 'already_ending' },
      ]),
    ).toEqual({ success: 'Nina Park has been blocked; no service line was set to end. 2 service lines were already set to end', failure: null });
    expect(blockedLinesNotices('Nina Park', [])).toEqual({ success: 'Nina Park has been blocked; they had no active service lines to end', failure: null });
  });

  it('list every line that failed in one failure, with its reason or that none was given', () => {
    expect(
      blockedLinesNotices('Nina Park', [
        { serviceLineNumber: 'A', outcome: 'failed', message: 'Provider unavailable' },
        { serviceLineNumber: 'B', outcome: 'scheduled' },
        { serviceLineNumber: 'C', outcome: 'failed', message: '  ' },
      ]),
    ).toEqual({
      success: 'Nina Park has been blocked; 1 service line will end at the end of the billing cycle',
      failure: '2 service lines could not be set to end: A (Provider unavailable); C (no reason given)',
    });
  });
});

describe('customer rules of the row actions', () => {
  it('edit validation keeps the create messages and limits phone and address', () => {
    expect(validateEditCustomer({ name: 'A', email: 'a@b.co', company: 'C', phone: '1'.repeat(41), address: 'x'.repeat(301) })).toEqual({
      phone: 'Phone must be at most 40 characters',
      address: 'Address must be at most 300 characters',
    });
    expect(validateEditCustomer({ name: ' ', email: '', company: '', phone: '', address: '' })).toEqual({
      name: CUSTOMER_MESSAGES.nameRequired,
      email: CUSTOMER_MESSAGES.emailRequired,
      company: CUSTOMER_MESSAGES.companyRequired,
    });
  });

  it('a block reason is required and at most 500 characters once trimmed', () => {
    expect(blockReasonProblem('   ')).toBe(CUSTOMER_MESSAGES.blockReasonRequired);
    expect(blockReasonProblem(` ${'x'.repeat(500)} `)).toBeNull();
    expect(blockReasonProblem('x'.repeat(501))).toBe('Block reason must be at most 500 characters');
  });
});
