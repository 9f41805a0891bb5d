// Customers → a row's actions menu (customerActions machine): View Details, Edit Customer, Account
// Settings, Block (with, for the admin role, the option to also end the customer's lines) and
// Unblock. Its generated paths walked on the machine and through the dialogs on /customers, signed
// in as an administrator and as a user-role portal user, plus journeys pinned by hand.
import { screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import { CUSTOMER_LINE_ENDING_MESSAGES, CUSTOMER_MESSAGES, type CustomerListItem, type CustomerUpdateData } from '../../../src/domain/customers';
import {
  CUSTOMER_ACTION_MESSAGES,
  blockReasonProblem,
  customerActionsMachine,
  validateEditCustomer,
  type BlockRequest,
  type BlockResult,
  type CustomerActionsInput,
  type EditField,
} from '../../../src/machines/customer-actions';
import { daysLabel, formatDate } from '../../../src/ui/customers/format';
import { customerFixture } from '../../fixtures/customers';
import { adminProfile, profileWith } from '../../machines/fixtures';
import { defineModel, done, failed, type EventOfType } from '../framework/model';
import { openPage, type PageScreen } from '../framework/screen';
import { modelSuite } from '../framework/suite';

const customer = customerFixture({ phone: '+1 555 0100', accountExpiresAt: '2027-06-01T00:00:00.000Z', lastLogin: '2026-11-20T10:00:00.000Z' });
/** Another row, blocked: the menu offers Unblock for it. */
const omar = customerFixture({
  uuid: '8e4f0b52-6c3d-4e9f-a021-3b4c5d6e7f80',
  name: 'Omar Haddad',
  email: 'omar@contoso.example',
  company: 'Contoso Marine',
  blockedEnabled: true,
  blockedReason: 'Unpaid invoices',
  blockedAt: '2026-11-01T09:00:00.000Z',
});
const activity = [{ id: 'a1', action: 'customer.login', description: 'Nina Park signed in', actorName: 'Nina Park', createdAt: '2026-11-20T10:00:00.000Z' }];
const extendedUntil = '2027-08-30T00:00:00.000Z';
/** The page starts the actor with the signed-in portal user's role: only an admin may end lines. */
const admin: CustomerActionsInput = { canEndLines: true };
const reader: CustomerActionsInput = { canEndLines: false };

const ok = <T,>(data: T): { ok: true; status: number; data: T; message: string } => ({ ok: true, status: 200, data, message: 'ok' });
const refused = (status: number, message: string, errors?: { path: string; message: string }[]) => ({
  ok: false as const,
  status,
  message,
  ...(errors ? { errors } : {}),
});

const LABELS: Record<EditField, string> = { company: 'Company Name', name: 'Full Name', email: 'Email Address', phone: 'Phone', address: 'Address' };
const MENU: Record<'user.view' | 'user.edit' | 'user.settings' | 'user.block' | 'user.unblock', string> = {
  'user.view': 'View Details',
  'user.edit': 'Edit Customer',
  'user.settings': 'Account Settings',
  'user.block': 'Block Customer',
  'user.unblock': 'Unblock Customer',
};

const dialog = (name: string) => within(screen.getByRole('dialog', { name }));
/** The one dialog on screen (the row actions show one at a time). */
const openDialog = () => within(screen.getByRole('dialog'));
const buttonIn = (scope: ReturnType<typeof dialog>, name: string) => scope.getByRole('button', { name }) as HTMLButtonElement;
const expectText = (scope: ReturnType<typeof dialog>, text: string | null) => {
  if (text) expect(scope.getByText(text)).toBeTruthy();
};

type RowEvent = EventOfType<typeof customerActionsMachine, keyof typeof MENU>;
/** The row's ⋮ menu, then the item. */
async function rowAction({ user }: PageScreen, event: RowEvent) {
  await user.click(await screen.findByRole('button', { name: `Actions for ${event.customer.name}` }));
  await user.click(await screen.findByRole('menuitem', { name: MENU[event.type] }));
}

/** The list and stat cards the page loads under the dialogs. */
const customersAnswers = {
  'GET /api/v1/customers': { body: { success: true, message: 'ok', data: { customers: [customer, omar], pagination: { total: 2, page: 1, limit: 10, pages: 1 } } } },
  'GET /api/v1/customers/stats': { body: { success: true, message: 'ok', data: { total: 2, active: 1, pending: 0, mfaEnabled: 0, blocked: 1, expiringSoon: 0, expired: 0 } } },
};

export const customerActionsModel = defineModel<typeof customerActionsMachine, PageScreen>({
  name: 'customer-actions',
  machine: customerActionsMachine,
  inputs: [admin, reader],
  events: {
    'user.view': [{ type: 'user.view', customer }],
    'user.edit': [{ type: 'user.edit', customer }],
    'user.settings': [{ type: 'user.settings', customer }],
    // The second of each pair is the stale click the guard refuses (the menu never offers it).
    'user.block': [
      { type: 'user.block', customer },
      { type: 'user.block', customer: omar },
    ],
    'user.unblock': [
      { type: 'user.unblock', customer: omar },
      { type: 'user.unblock', customer },
    ],
    'user.close': [{ type: 'user.close' }],
    'user.retry': [{ type: 'user.retry' }],
    'user.field': [
      { type: 'user.field', field: 'email', value: 'nina@northwind.example' },
      { type: 'user.field', field: 'name', value: '' },
    ],
    'user.submit': [{ type: 'user.submit' }],
    'user.reason': [{ type: 'user.reason', value: 'Unpaid invoices' }],
    'user.endLines': [
      { type: 'user.endLines', value: true },
      { type: 'user.endLines', value: false },
    ],
    'user.confirm': [{ type: 'user.confirm' }],
    'user.back': [{ type: 'user.back' }],
    'user.days': [{ type: 'user.days', days: 90 }],
    'user.extend': [{ type: 'user.extend' }],
    'user.resendLink': [{ type: 'user.resendLink' }],
  },
  actorResults: [
    done('loadDetail', { ok: true, data: { customer, activity } }),
    done('loadDetail', { ok: false, message: 'Nope' }),
    failed('loadDetail', new Error('boom')),
    done('updateCustomer', ok(customer)),
    done('updateCustomer', refused(409, 'Duplicate')),
    failed('updateCustomer', new TypeError('fetch failed')),
    done('extendAccount', ok<CustomerListItem>({ ...customer, accountExpiresAt: extendedUntil })),
    done('extendAccount', refused(404, 'Gone')),
    failed('extendAccount', new TypeError('fetch failed')),
    done('resendLink', ok({})),
    done('resendLink', refused(409, 'Already set')),
    failed('resendLink', new TypeError('fetch failed')),
    done(
      'blockCustomer',
      ok<CustomerUpdateData>({
        customer: { ...customer, blockedEnabled: true, blockedReason: 'Unpaid invoices' },
        lineEndings: [
          { serviceLineNumber: 'AST-100001-20000-11', outcome: 'scheduled' },
          { serviceLineNumber: 'AST-100002-20000-11', outcome: 'failed', message: 'Provider unavailable' },
        ],
      }),
    ),
    done('blockCustomer', refused(404, 'Gone')),
    failed('blockCustomer', new TypeError('fetch failed')),
    done('unblockCustomer', ok<CustomerListItem>({ ...omar, blockedEnabled: false, blockedReason: null, blockedAt: null })),
    done('unblockCustomer', refused(404, 'Gone')),
    failed('unblockCustomer', new TypeError('fetch failed')),
  ],
  states: {
    closed: (snapshot) => {
      expect(snapshot.hasTag('busy')).toBe(false);
      expect(snapshot.can({ type: 'user.view', customer })).toBe(true);
    },
    'viewing.loading': ({ context, ...snapshot }) => {
      expect(snapshot.hasTag('loadingDetail')).toBe(true);
      expect(context.detailError).toBeNull();
      expect(context.customer).toEqual(customer);
    },
    'viewing.loaded': ({ context }) => {
      expect(context.activity).toEqual(activity);
      expect(context.detailError).toBeNull();
    },
    'viewing.failed': ({ context }) => expect(context.detailError).toBe(CUSTOMER_ACTION_MESSAGES.detailFailed),
    'editing.idle': (snapshot) => {
      expect(snapshot.hasTag('busy')).toBe(false);
      expect(snapshot.context.customer).toEqual(customer);
    },
    'editing.saving': ({ context, ...snapshot }) => {
      expect(snapshot.hasTag('busy')).toBe(true);
      // Only a form the client rules accept is sent.
      expect(validateEditCustomer(context.form)).toEqual({});
      expect(context.failure).toBeNull();
    },
    'settings.idle': ({ context }) => {
      expect(context.customer?.uuid).toBe(customer.uuid);
      if (context.extended) expect(context.customer?.accountExpiresAt).toBe(extendedUntil);
    },
    'settings.extending': (snapshot) => {
      expect(snapshot.hasTag('busy')).toBe(true);
      expect(snapshot.context.failure).toBeNull();
    },
    'settings.resending': (snapshot) => {
      expect(snapshot.hasTag('busy')).toBe(true);
      expect(snapshot.context.failure).toBeNull();
    },
    // Whole snapshots here: `can` reads the context through `this`.
    'blocking.reason': (snapshot) => {
      const { context } = snapshot;
      expect(context.customer?.blockedEnabled).toBe(false);
      // The option is the admin role's: anyone else can neither tick it nor have it ticked.
      expect(snapshot.can({ type: 'user.endLines', value: !context.endLines })).toBe(context.canEndLines);
      if (!context.canEndLines) expect(context.endLines).toBe(false);
    },
    'blocking.confirming': (snapshot) => {
      const { context } = snapshot;
      expect(blockReasonProblem(context.reason)).toBeNull();
      expect(snapshot.can({ type: 'user.endLines', value: !context.endLines })).toBe(false);
      if (context.endLines) expect(context.canEndLines).toBe(true);
    },
    'blocking.submitting': ({ context, ...snapshot }) => {
      expect(snapshot.hasTag('busy')).toBe(true);
      expect(blockReasonProblem(context.reason)).toBeNull();
      if (context.endLines) expect(context.canEndLines).toBe(true);
    },
    'unblocking.confirming': ({ context }) => expect(context.customer?.blockedEnabled).toBe(true),
    'unblocking.submitting': (snapshot) => {
      expect(snapshot.hasTag('busy')).toBe(true);
      expect(snapshot.context.customer?.blockedEnabled).toBe(true);
    },
  },
  ui: {
    open: async (seam, input) => {
      const page = openPage('/customers', seam, customersAnswers, input!.canEndLines ? adminProfile : profileWith(['customers:manage', 'terminals:read']));
      await screen.findByText('Showing 2 of 2 customers', {}, { timeout: 5000 });
      return page;
    },
    events: {
      'user.view': rowAction,
      'user.edit': rowAction,
      'user.settings': rowAction,
      'user.block': rowAction,
      'user.unblock': rowAction,
      // The close icon in the dialog's header: every step that may be left has it.
      'user.close': async ({ user }) => user.click(openDialog().getAllByRole('button', { name: 'Close' })[0]!),
      'user.retry': async ({ user }) => user.click(buttonIn(dialog('Customer Details'), 'Try Again')),
      'user.field': async ({ user }, event) => {
        const input = dialog('Edit Customer').getByLabelText(LABELS[event.field]);
        await user.click(input);
        await user.clear(input);
        // Pasted: one input event, as the step is one event.
        if (event.value) await user.paste(event.value);
      },
      'user.submit': async ({ user }) => {
        const edit = screen.queryByRole('dialog', { name: 'Edit Customer' });
        await user.click(edit ? buttonIn(within(edit), 'Save Changes') : buttonIn(dialog('Block Customer'), 'Continue'));
      },
      'user.reason': async ({ user }, event) => {
        const input = dialog('Block Customer').getByLabelText('Reason');
        await user.click(input);
        await user.clear(input);
        await user.paste(event.value);
      },
      'user.confirm': async ({ user }) => {
        const unblock = screen.queryByRole('dialog', { name: 'Unblock Customer' });
        await user.click(unblock ? buttonIn(within(unblock), 'Unblock Customer') : buttonIn(dialog('Block Customer'), 'Block Customer'));
      },
      // A click toggles the box: the screen sends the value it does not hold (see drivable).
      'user.endLines': async ({ user }) => user.click(dialog('Block Customer').getByRole('checkbox', { name: CUSTOMER_LINE_ENDING_MESSAGES.option })),
      'user.back': async ({ user }) => user.click(buttonIn(dialog('Block Customer'), 'Back')),
      'user.days': async ({ user }, event) => {
        await user.click(dialog('Account Settings').getByLabelText('Extend by').closest('.p-dropdown')!);
        await user.click(within(await screen.findByRole('listbox')).getByRole('option', { name: daysLabel(event.days) }));
      },
      'user.extend': async ({ user }) => user.click(buttonIn(dialog('Account Settings'), 'Extend Account')),
      'user.resendLink': async ({ user }) => user.click(buttonIn(dialog('Account Settings'), 'Resend password link')),
    },
    // The box is shown to the admin role only, and a click sends the value it does not hold.
    drivable: (snapshot, event) => event.type !== 'user.endLines' || (snapshot.context.canEndLines && event.value !== snapshot.context.endLines),
    states: {
      closed: () => expect(screen.queryByRole('dialog')).toBeNull(),
      'viewing.loading': ({ context }) => {
        const details = dialog('Customer Details');
        expect(details.getByText(context.customer!.email)).toBeTruthy();
        expect(details.getByLabelText('Loading activity')).toBeTruthy();
        expect(details.queryByRole('button', { name: 'Try Again' })).toBeNull();
      },
      'viewing.loaded': () => {
        const details = dialog('Customer Details');
        expect(details.getByText('Nina Park signed in')).toBeTruthy();
        expect(details.queryByRole('button', { name: 'Try Again' })).toBeNull();
      },
      'viewing.failed': () => {
        const details = dialog('Customer Details');
        expect(details.getByText(`${CUSTOMER_ACTION_MESSAGES.detailFailed}.`, { exact: false })).toBeTruthy();
        expect(buttonIn(details, 'Try Again').disabled).toBe(false);
      },
      'editing.idle': ({ context }) => {
        const edit = dialog('Edit Customer');
        for (const [field, label] of Object.entries(LABELS) as [EditField, string][]) {
          expect((edit.getByLabelText(label) as HTMLInputElement).value).toBe(context.form[field]);
          expectText(edit, context.errors[field] ?? null);
        }
        expectText(edit, context.failure);
        expect(buttonIn(edit, 'Save Changes').disabled).toBe(false);
      },
      'editing.saving': () => {
        const edit = dialog('Edit Customer');
        expect(buttonIn(edit, 'Saving...').disabled).toBe(true);
        expect(buttonIn(edit, 'Cancel').disabled).toBe(true);
        expect(edit.queryByRole('button', { name: 'Close' })).toBeNull();
      },
      'settings.idle': ({ context }) => {
        const settings = dialog('Account Settings');
        expect((settings.getByLabelText('Extend by') as HTMLInputElement).value).toBe(daysLabel(context.days));
        expectText(settings, context.failure);
        if (context.extended) {
          expectText(settings, `Extended by ${context.extended.days} days. The account now expires on ${formatDate(context.extended.until)}.`);
        }
        expect(buttonIn(settings, 'Extend Account').disabled).toBe(false);
        expect(buttonIn(settings, 'Resend password link').disabled).toBe(false);
      },
      'settings.extending': () => {
        const settings = dialog('Account Settings');
        expect(buttonIn(settings, 'Extending...').disabled).toBe(true);
        expect(buttonIn(settings, 'Resend password link').disabled).toBe(true);
      },
      'settings.resending': () => {
        const settings = dialog('Account Settings');
        expect(buttonIn(settings, 'Sending...').disabled).toBe(true);
        expect(buttonIn(settings, 'Extend Account').disabled).toBe(true);
      },
      'blocking.reason': ({ context }) => {
        const block = dialog('Block Customer');
        expect((block.getByLabelText('Reason') as HTMLTextAreaElement).value).toBe(context.reason);
        const box = block.queryByRole('checkbox', { name: CUSTOMER_LINE_ENDING_MESSAGES.option }) as HTMLInputElement | null;
        expect(box !== null).toBe(context.canEndLines);
        if (box) expect(box.checked).toBe(context.endLines);
        expectText(block, context.reasonError);
        expectText(block, context.failure);
        expect(buttonIn(block, 'Continue').disabled).toBe(false);
      },
      'blocking.confirming': ({ context }) => {
        const block = dialog('Block Customer');
        expect(block.getByLabelText('Reason').textContent).toBe(context.reason.trim());
        expect(block.queryByText(CUSTOMER_LINE_ENDING_MESSAGES.confirmNote) !== null).toBe(context.endLines);
        expect(buttonIn(block, 'Block Customer').disabled).toBe(false);
        expect(buttonIn(block, 'Back').disabled).toBe(false);
      },
      'blocking.submitting': () => {
        const block = dialog('Block Customer');
        expect(buttonIn(block, 'Blocking...').disabled).toBe(true);
        expect(buttonIn(block, 'Back').disabled).toBe(true);
      },
      'unblocking.confirming': ({ context }) => {
        const unblock = dialog('Unblock Customer');
        expect(unblock.getByText(context.customer!.blockedReason!)).toBeTruthy();
        expectText(unblock, context.failure);
        expect(buttonIn(unblock, 'Unblock Customer').disabled).toBe(false);
      },
      'unblocking.submitting': () => {
        const unblock = dialog('Unblock Customer');
        expect(buttonIn(unblock, 'Unblocking...').disabled).toBe(true);
        expect(buttonIn(unblock, 'Cancel').disabled).toBe(true);
      },
    },
  },
});

modelSuite(customerActionsModel);

type Answer<T> = T | Error | 'hang';

/** The row actions with scripted block answers (the others answer success). */
function startActions(block: Array<Answer<BlockResult>>, input: CustomerActionsInput = admin) {
  const calls: Array<[string, unknown]> = [];
  const customerChanged = vi.fn();
  const answer = <T, I>(name: string, list: Array<Answer<T>>) =>
    fromPromise<T, I>(async ({ input }) => {
      calls.push([name, input]);
      const next = list[Math.min(calls.filter(([n]) => n === name).length - 1, list.length - 1)]!;
      if (next === 'hang') return new Promise<never>(() => {});
      if (next instanceof Error) throw next;
      return next;
    });
  const actor = createActor(
    customerActionsMachine.provide({
      actors: { blockCustomer: answer<BlockResult, BlockRequest>('blockCustomer', block) },
      actions: { customerChanged: () => customerChanged() },
    }),
    { input },
  ).start();
  return { actor, calls, customerChanged };
}

describe('customer actions machine (pinned journeys)', () => {
  // Pinned by hand: generated expectations would move with a wrong transition, these do not.
  it('block: empty reason refused, reason, confirm, server refuses, confirm again, blocked: ends closed with two attempts', async () => {
    const blocked: CustomerListItem = { ...customer, blockedEnabled: true, blockedReason: 'Chargeback', blockedAt: '2026-11-21T09:00:00.000Z' };
    const { actor, calls, customerChanged } = startActions([refused(500, 'Try later'), ok({ customer: blocked, lineEndings: [] })]);
    actor.send({ type: 'user.block', customer });
    actor.send({ type: 'user.submit' });
    expect(actor.getSnapshot().context.reasonError).toBe(CUSTOMER_MESSAGES.blockReasonRequired);
    actor.send({ type: 'user.reason', value: 'Chargeback' });
    actor.send({ type: 'user.submit' });
    actor.send({ type: 'user.confirm' });
    await waitFor(actor, (s) => s.matches({ blocking: 'reason' }));
    actor.send({ type: 'user.submit' });
    actor.send({ type: 'user.confirm' });
    await waitFor(actor, (s) => s.matches('closed'));
    expect(actor.getSnapshot().value).toBe('closed');
    expect(actor.getSnapshot().context.customer).toEqual(blocked);
    expect(calls).toHaveLength(2);
    expect(customerChanged).toHaveBeenCalledOnce();
  });
});
