// Payments → Record payment (ledgerEntryForm machine): its generated paths walked on the machine
// and through the /billing/payments page (Acme picked from the customers the picker lists, billed
// in USD only; an amount typed; a credit note instead; the older statement ticked), plus a journey
// pinned by hand.
import { screen, waitFor as waitForDom, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { waitFor } from 'xstate';
import { LEDGER_KIND_LABELS, LEDGER_MESSAGES, isoDay } from '../../../src/domain/ledger';
import { ledgerEntryFormMachine, validateLedgerEntry } from '../../../src/machines/ledger-entry-form';
import { ENTRY_LABELS } from '../../../src/ui/billing/payments/LedgerEntryDialog';
import { PAYMENTS_TEXTS as T } from '../../../src/ui/billing/payments/parts';
import {
  ACME_ID,
  ACME_OPTION,
  OLD_STATEMENT_ID,
  acme,
  cancel,
  createEntry,
  customerAccount,
  entryField,
  paymentsAnswers,
  pickCustomer,
  posted,
  refusal,
  startLedgerEntryForm,
  submit,
  tickStatement,
} from '../../fixtures/ledger';
import { ok, refused } from '../../machines/scripted-actors';
import { defineModel, done, failed } from '../framework/model';
import { openPage, type PageScreen } from '../framework/screen';
import { modelSuite } from '../framework/suite';

/** The day the page opens the form on. */
const today = isoDay(new Date());
const dateError = refusal(400, LEDGER_MESSAGES.dateInFuture, [{ path: 'occurredOn', message: LEDGER_MESSAGES.dateInFuture }]);

const dialog = () => within(screen.getByRole('dialog', { name: T.entryTitle }));
const button = (name: string) => dialog().getByRole('button', { name }) as HTMLButtonElement;
const amount = () => dialog().getByLabelText(ENTRY_LABELS.amount) as HTMLInputElement;

export const ledgerEntryFormModel = defineModel<typeof ledgerEntryFormMachine, PageScreen>({
  name: 'ledger-entry-form',
  machine: ledgerEntryFormMachine,
  events: {
    'user.create': [createEntry(today)],
    'user.customer': [pickCustomer(acme)],
    'user.field': [entryField('amount', '120.50'), entryField('kind', 'credit_note')],
    'user.statement': [tickStatement(OLD_STATEMENT_ID, true)],
    'user.submit': [submit],
    'user.cancel': [cancel],
  },
  actorResults: [
    done('loadAccount', ok(customerAccount())),
    done('loadAccount', refused(LEDGER_MESSAGES.customerNotFound)),
    failed('loadAccount', new TypeError('fetch failed')),
    done('postEntry', ok(posted())),
    // Beside the date, and above the form.
    done('postEntry', dateError),
    done('postEntry', refusal(404, LEDGER_MESSAGES.customerNotFound)),
    failed('postEntry', new TypeError('fetch failed')),
  ],
  states: {
    closed: (s) => {
      expect(s.hasTag('open')).toBe(false);
      expect(s.hasTag('busy')).toBe(false);
    },
    'editing.ready': (s) => {
      expect(s.hasTag('open')).toBe(true);
      expect(s.context.today).toBe(today);
    },
    'editing.loadingAccount': (s) => {
      expect(s.context.form.customer?.id).toBe(ACME_ID);
      expect(s.context.form.currency).toBe('');
    },
    saving: (s) => {
      expect(s.hasTag('busy')).toBe(true);
      expect(s.can(cancel)).toBe(false);
      expect(validateLedgerEntry(s.context.form, s.context)).toEqual({});
    },
  },
  ui: {
    open: async (seam) => {
      const page = openPage('/billing/payments', seam, paymentsAnswers());
      await screen.findByRole('button', { name: T.recordPayment }, { timeout: 5000 });
      return page;
    },
    drivable: (snapshot, event) => {
      const { form, open } = snapshot.context;
      // A drop-down or a selected kind gives no change for what is already chosen.
      if (event.type === 'user.customer') return form.customer?.id !== event.customer.id;
      if (event.type === 'user.field' && event.field === 'kind') return form.kind !== event.value;
      // The statements show once the account is read and a currency chosen; a ticked box unticks.
      if (event.type === 'user.statement') return snapshot.matches({ editing: 'ready' }) && form.currency !== '' && open.length > 0 && !form.statementIds.includes(event.statementId);
      return true;
    },
    events: {
      'user.create': async ({ user }) => user.click(screen.getByRole('button', { name: T.recordPayment })),
      'user.customer': async ({ user }) => {
        await waitForDom(() => expect(screen.getByRole('dialog', { name: T.entryTitle }).classList.contains('p-dialog-enter-done')).toBe(true));
        await user.click(dialog().getByRole('combobox', { name: T.customerLabel }));
        await user.click(await screen.findByRole('option', { name: ACME_OPTION }, { timeout: 5000 }));
      },
      'user.field': async ({ user }, event) => {
        if (event.field === 'kind') return user.click(button(LEDGER_KIND_LABELS.credit_note));
        await user.clear(amount());
        await user.click(amount());
        await user.paste(event.value);
      },
      'user.statement': async ({ user }) => user.click(dialog().getByRole('checkbox', { name: /S-2026-0001/ })),
      'user.submit': async ({ user }) => user.click(button(T.recordButton)),
      'user.cancel': async ({ user }) => user.click(button('Cancel')),
    },
    states: {
      closed: () => {
        expect(screen.queryByRole('dialog', { name: T.entryTitle })).toBeNull();
        expect((screen.getByRole('button', { name: T.recordPayment }) as HTMLButtonElement).disabled).toBe(false);
      },
      'editing.ready': ({ context }) => {
        const { form, errors } = context;
        expect(dialog().getByRole('combobox', { name: T.customerLabel }).textContent).toContain(form.customer ? form.customer.name : T.customerPlaceholder);
        expect(amount().value).toBe(form.amount);
        expect((dialog().getByLabelText(ENTRY_LABELS.occurredOn) as HTMLInputElement).value).toBe(form.occurredOn);
        if (form.currency) expect(dialog().getByRole('combobox', { name: ENTRY_LABELS.currency }).textContent).toContain(form.currency);
        for (const message of Object.values(errors)) if (message) expect(dialog().getAllByText(message).length).toBeGreaterThan(0);
        expect(amount().getAttribute('aria-invalid')).toBe(errors.amount ? 'true' : 'false');
        if (context.failure) expect(dialog().getByText(context.failure)).toBeTruthy();
        if (form.currency && context.open.length > 0) expect((dialog().getByRole('checkbox', { name: /S-2026-0001/ }) as HTMLInputElement).checked).toBe(form.statementIds.includes(OLD_STATEMENT_ID));
        expect(button(T.recordButton).disabled).toBe(false);
      },
      'editing.loadingAccount': () => expect(dialog().getByRole('combobox', { name: ENTRY_LABELS.currency }).textContent).toContain('Reading...'),
      saving: () => {
        expect(button(T.recording).disabled).toBe(true);
        expect(button('Cancel').disabled).toBe(true);
        expect(amount().disabled).toBe(true);
      },
    },
  },
});

modelSuite(ledgerEntryFormModel);

describe('ledger entry form machine (pinned journeys)', () => {
  it('a payment refused for its date, the date corrected, then recorded against the older statement', async () => {
    const { actor, called, entryRecorded } = startLedgerEntryForm({ post: [dateError, ok(posted())] });
    actor.send(createEntry('2026-04-10'));
    actor.send(pickCustomer());
    await waitFor(actor, (s) => s.matches({ editing: 'ready' }) && s.context.form.currency === 'USD');
    actor.send(entryField('amount', '120.50'));
    actor.send(tickStatement(OLD_STATEMENT_ID));
    actor.send(submit);
    await waitFor(actor, (s) => s.matches('editing') && s.context.errors.occurredOn === LEDGER_MESSAGES.dateInFuture);
    actor.send(entryField('occurredOn', '2026-04-09'));
    actor.send(submit);
    await waitFor(actor, (s) => s.matches('closed'));
    expect(called('postEntry').map((c) => c.input)).toMatchObject([
      { occurredOn: '2026-04-10', statementIds: [OLD_STATEMENT_ID] },
      { occurredOn: '2026-04-09', statementIds: [OLD_STATEMENT_ID], amount: '120.50', method: 'bank_transfer' },
    ]);
    expect(entryRecorded).toHaveBeenCalledOnce();
  });
});
