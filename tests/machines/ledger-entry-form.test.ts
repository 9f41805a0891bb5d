import { describe, expect, it } from 'vitest';
import { waitFor } from 'xstate';
import { LEDGER_MESSAGES } from '../../src/domain/ledger';
import { EMPTY_LEDGER_ENTRY_FORM, LEDGER_ENTRY_TEXTS, amountProblem, ledgerEntryBody, ledgerEntryFormView, ledgerEntryRefusal, validateLedgerEntry } from '../../src/machines/ledger-entry-form';
import {
  ACME_ID,
  EUR_STATEMENT_ID,
  NEW_STATEMENT_ID,
  OLD_STATEMENT_ID,
  TODAY,
  acme,
  cancel,
  createEntry,
  entryField,
  pickCustomer,
  refusal,
  startLedgerEntryForm,
  submit,
  tickStatement,
  twoCurrencyAccount,
} from '../fixtures/ledger';
import { ok } from './scripted-actors';

const filled = { ...EMPTY_LEDGER_ENTRY_FORM, customer: acme, currency: 'USD', amount: '120.50', occurredOn: TODAY };

describe('ledger entry rules', () => {
  it('reads the amount exactly in the currency, and more than zero', () => {
    expect(amountProblem('120.50', 'USD')).toBeNull();
    expect(amountProblem('120.505', 'USD')).toBe('USD amounts have at most 2 decimals');
    expect(amountProblem('0', 'USD')).toBe(LEDGER_MESSAGES.amountNotPositive);
    expect(amountProblem('12,50', 'USD')).toBe(LEDGER_ENTRY_TEXTS.amountInvalid('USD'));
  });

  it('takes a day up to today and a currency the customer is billed in', () => {
    const rules = { today: TODAY, currencies: ['USD'] };
    expect(validateLedgerEntry(filled, rules)).toEqual({});
    expect(validateLedgerEntry({ ...filled, occurredOn: '2026-04-11' }, rules)).toEqual({ occurredOn: LEDGER_MESSAGES.dateInFuture });
    expect(validateLedgerEntry({ ...filled, currency: 'EUR' }, rules)).toEqual({ currency: LEDGER_MESSAGES.currencyNotBilled('EUR') });
    expect(Object.keys(validateLedgerEntry(EMPTY_LEDGER_ENTRY_FORM, rules)).sort()).toEqual(['amount', 'currency', 'customer', 'occurredOn']);
  });

  it('sends a method with payments only and statements with payments and credit notes only', () => {
    expect(ledgerEntryBody({ ...filled, statementIds: [OLD_STATEMENT_ID], reference: ' CHQ 1 ' })).toEqual({
      customerId: ACME_ID,
      kind: 'payment',
      currency: 'USD',
      amount: '120.50',
      occurredOn: TODAY,
      method: 'bank_transfer',
      reference: 'CHQ 1',
      note: null,
      statementIds: [OLD_STATEMENT_ID],
    });
    const refund = ledgerEntryBody({ ...filled, kind: 'refund', statementIds: [OLD_STATEMENT_ID] });
    expect(refund).toMatchObject({ statementIds: null });
    expect(refund).not.toHaveProperty('method');
  });

  it('puts the server’s field errors beside their fields, and anything else above the form', () => {
    expect(ledgerEntryRefusal(refusal(400, 'x', [{ path: 'occurredOn', message: LEDGER_MESSAGES.dateInFuture }, { path: 'body/statementIds', message: LEDGER_MESSAGES.statementNotOpen }]))).toEqual({
      errors: { occurredOn: LEDGER_MESSAGES.dateInFuture, statements: LEDGER_MESSAGES.statementNotOpen },
      failure: null,
    });
    expect(ledgerEntryRefusal(refusal(404, LEDGER_MESSAGES.customerNotFound))).toEqual({ errors: {}, failure: LEDGER_MESSAGES.customerNotFound });
  });
});

describe('ledger entry form machine', () => {
  it('opens on today, reads the customer’s account and takes their one currency', async () => {
    const { actor, called } = startLedgerEntryForm();
    actor.send(createEntry());
    expect(actor.getSnapshot().context.form.occurredOn).toBe(TODAY);
    actor.send(pickCustomer());
    expect(ledgerEntryFormView(actor.getSnapshot()).loadingAccount).toBe(true);
    const ready = await waitFor(actor, (s) => s.matches({ editing: 'ready' }));
    expect(called('loadAccount').map((c) => c.input)).toEqual([{ customerId: ACME_ID }]);
    expect(ready.context.form.currency).toBe('USD');
    expect(ledgerEntryFormView(ready).statements.map((s) => s.statementId)).toEqual([OLD_STATEMENT_ID, NEW_STATEMENT_ID]);
  });

  it('asks which currency when there are several, and drops the statements checked in another', async () => {
    const { actor } = startLedgerEntryForm({ account: [ok(twoCurrencyAccount)] });
    actor.send(createEntry());
    actor.send(pickCustomer());
    await waitFor(actor, (s) => s.matches({ editing: 'ready' }));
    expect(actor.getSnapshot().context.form.currency).toBe('');
    actor.send(entryField('currency', 'EUR'));
    actor.send(tickStatement(EUR_STATEMENT_ID));
    expect(actor.getSnapshot().context.form.statementIds).toEqual([EUR_STATEMENT_ID]);
    actor.send(entryField('currency', 'USD'));
    expect(actor.getSnapshot().context.form.statementIds).toEqual([]);
  });

  it('records a payment: toasts the server’s words for its kind, tells the page and closes', async () => {
    const { actor, called, notifySuccess, entryRecorded } = startLedgerEntryForm();
    actor.send(createEntry());
    actor.send(pickCustomer());
    await waitFor(actor, (s) => s.matches({ editing: 'ready' }));
    actor.send(entryField('amount', '99'));
    actor.send(entryField('kind', 'credit_note'));
    actor.send(submit);
    expect(actor.getSnapshot().can(cancel)).toBe(false);
    await waitFor(actor, (s) => s.matches('closed'));
    expect(called('postEntry')[0]!.input).toMatchObject({ kind: 'credit_note', amount: '99', statementIds: null });
    expect(called('postEntry')[0]!.input).not.toHaveProperty('method');
    expect(notifySuccess).toHaveBeenCalledExactlyOnceWith(LEDGER_MESSAGES.creditNoteRecorded);
    expect(entryRecorded).toHaveBeenCalledOnce();
  });

  it('comes back with the server’s field error beside the date, and editing the date clears it', async () => {
    const { actor, notifyFailure, entryRecorded } = startLedgerEntryForm({
      post: [refusal(400, LEDGER_MESSAGES.dateInFuture, [{ path: 'occurredOn', message: LEDGER_MESSAGES.dateInFuture }])],
    });
    actor.send(createEntry());
    actor.send(pickCustomer());
    await waitFor(actor, (s) => s.matches({ editing: 'ready' }));
    actor.send(entryField('amount', '10'));
    actor.send(submit);
    const back = await waitFor(actor, (s) => s.matches('editing') && s.context.errors.occurredOn !== undefined);
    expect(back.context.errors.occurredOn).toBe(LEDGER_MESSAGES.dateInFuture);
    expect(back.context.failure).toBeNull();
    expect(notifyFailure).toHaveBeenCalledExactlyOnceWith(LEDGER_MESSAGES.dateInFuture);
    actor.send(entryField('occurredOn', '2026-04-09'));
    expect(actor.getSnapshot().context.errors.occurredOn).toBeUndefined();
    expect(entryRecorded).not.toHaveBeenCalled();
  });

  it('sends nothing while the form has a problem', () => {
    const { actor, called } = startLedgerEntryForm();
    actor.send(createEntry());
    actor.send(entryField('amount', '-5'));
    actor.send(submit);
    expect(actor.getSnapshot().value).toEqual({ editing: 'ready' });
    expect(actor.getSnapshot().context.errors).toMatchObject({ customer: LEDGER_ENTRY_TEXTS.customerRequired, amount: LEDGER_MESSAGES.amountNotPositive });
    expect(called('postEntry')).toHaveLength(0);
  });
});
