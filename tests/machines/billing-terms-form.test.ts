import { describe, expect, it } from 'vitest';
import { waitFor } from 'xstate';
import { LEDGER_MESSAGES } from '../../src/domain/ledger';
import { BILLING_TERMS_MESSAGES, billingTermsFormState, termsBody, termsRefusal, validateTermsForm } from '../../src/machines/billing-terms-form';
import { PAST_DAY_REFUSED, days, resetTerms, startTermsForm, submitTerms, termsField, termsRefused, termsWire } from '../fixtures/ledger-account';
import { STATEMENT_CUSTOMER } from '../fixtures/statements';
import { ok } from './scripted-actors';

describe('the payment terms form, read before it is sent', () => {
  it('takes the net days alone, or with a promise to pay and its note; a blank day is no promise and carries no note', () => {
    expect(termsBody({ paymentTermsDays: 45, promiseToPayUntil: ' ', promiseNote: '' })).toEqual({ paymentTermsDays: 45, promiseToPayUntil: null, promiseNote: null });
    expect(termsBody({ paymentTermsDays: 30, promiseToPayUntil: '2026-12-15', promiseNote: ' Pays after the holidays ' })).toEqual({
      paymentTermsDays: 30,
      promiseToPayUntil: '2026-12-15',
      promiseNote: 'Pays after the holidays',
    });
    expect(validateTermsForm({ paymentTermsDays: 0, promiseToPayUntil: '2026-12-15', promiseNote: '' })).toEqual({});
  });

  it('refuses a day that is no date, a note without a day (the server would drop it unsaid), and days out of range', () => {
    expect(validateTermsForm({ paymentTermsDays: 30, promiseToPayUntil: '2026-02-30', promiseNote: '' })).toEqual({ promiseToPayUntil: BILLING_TERMS_MESSAGES.dateInvalid });
    expect(validateTermsForm({ paymentTermsDays: 30, promiseToPayUntil: '', promiseNote: 'Promised on the phone' })).toEqual({ promiseNote: BILLING_TERMS_MESSAGES.noteWithoutDate });
    expect(validateTermsForm({ paymentTermsDays: 366, promiseToPayUntil: '', promiseNote: '' })).toEqual({ paymentTermsDays: BILLING_TERMS_MESSAGES.daysInvalid });
  });

  it("puts the server's field errors by their fields whatever the path spelling, anything else above the form", () => {
    expect(termsRefusal(termsRefused([{ path: 'body.promiseToPayUntil', message: PAST_DAY_REFUSED }]))).toEqual({ errors: { promiseToPayUntil: PAST_DAY_REFUSED }, failure: null });
    expect(termsRefusal(termsRefused(undefined, LEDGER_MESSAGES.customerNotFound))).toEqual({ errors: {}, failure: LEDGER_MESSAGES.customerNotFound });
    expect(termsRefusal(termsRefused(undefined, ' '))).toEqual({ errors: {}, failure: BILLING_TERMS_MESSAGES.saveFailed });
  });
});

describe('billing terms form machine', () => {
  it('starts from the terms in force, with nothing to undo', () => {
    const { actor } = startTermsForm();
    const state = billingTermsFormState(actor.getSnapshot());
    expect(state).toMatchObject({ form: { paymentTermsDays: 30, promiseToPayUntil: '', promiseNote: '' }, busy: false, canReset: false, failure: null });
  });

  it('sends nothing while the form has a problem, and a day typed clears the note it was missing', () => {
    const { actor, called } = startTermsForm();
    actor.send(termsField('promiseNote', 'Promised on the phone'));
    actor.send(submitTerms);
    expect(actor.getSnapshot().value).toBe('editing');
    expect(actor.getSnapshot().context.errors).toEqual({ promiseNote: BILLING_TERMS_MESSAGES.noteWithoutDate });
    actor.send(termsField('promiseToPayUntil', '2026-12-15'));
    expect(actor.getSnapshot().context.errors).toEqual({ promiseNote: undefined, promiseToPayUntil: undefined });
    expect(called('saveTerms')).toHaveLength(0);
  });

  it('saves the customer terms, is busy meanwhile, then holds what the server stored and tells the page once', async () => {
    const stored = termsWire({ paymentTermsDays: 45, promiseToPayUntil: '2026-12-15', promiseNote: 'After the holidays' });
    const { actor, called, notifySuccess, termsSaved } = startTermsForm([ok(stored)]);
    actor.send(days(45));
    actor.send(termsField('promiseToPayUntil', '2026-12-15'));
    actor.send(termsField('promiseNote', 'After the holidays'));
    expect(billingTermsFormState(actor.getSnapshot()).canReset).toBe(true);
    actor.send(submitTerms);
    expect(billingTermsFormState(actor.getSnapshot())).toMatchObject({ busy: true, canReset: false });
    const saved = await waitFor(actor, (s) => s.matches('editing'));
    expect(called('saveTerms').map((c) => c.input)).toEqual([
      { customerId: STATEMENT_CUSTOMER.uuid, body: { paymentTermsDays: 45, promiseToPayUntil: '2026-12-15', promiseNote: 'After the holidays' } },
    ]);
    expect(saved.context.saved).toEqual(stored);
    // What is saved is the new start: nothing to undo.
    expect(billingTermsFormState(saved).canReset).toBe(false);
    expect(notifySuccess).toHaveBeenCalledExactlyOnceWith(LEDGER_MESSAGES.termsSaved);
    expect(termsSaved).toHaveBeenCalledOnce();
  });

  it('keeps what was typed when the server refuses the day, with its words under the day; Undo puts back the terms in force', async () => {
    const { actor, notifyFailure, termsSaved } = startTermsForm([termsRefused([{ path: 'promiseToPayUntil', message: PAST_DAY_REFUSED }])]);
    actor.send(days(15));
    actor.send(termsField('promiseToPayUntil', '2026-01-02'));
    actor.send(submitTerms);
    const refused = await waitFor(actor, (s) => s.matches('editing') && s.context.errors.promiseToPayUntil !== undefined);
    expect(refused.context.errors.promiseToPayUntil).toBe(PAST_DAY_REFUSED);
    expect(refused.context.form).toMatchObject({ paymentTermsDays: 15, promiseToPayUntil: '2026-01-02' });
    expect(refused.context.failure).toBeNull();
    expect(notifyFailure).toHaveBeenCalledOnce();
    expect(termsSaved).not.toHaveBeenCalled();
    // Sent again, the server's word on the last try no longer stands beside the field.
    actor.send(submitTerms);
    expect(actor.getSnapshot().context.errors).toEqual({});
    await waitFor(actor, (s) => s.matches('editing'));
    actor.send(resetTerms);
    expect(actor.getSnapshot().context).toMatchObject({ form: { paymentTermsDays: 30, promiseToPayUntil: '', promiseNote: '' }, errors: {}, failure: null });
  });

  it('says a request that got no answer failed, above the form, and keeps the form', async () => {
    const { actor } = startTermsForm([new TypeError('fetch failed')]);
    actor.send(days(60));
    actor.send(submitTerms);
    const failed = await waitFor(actor, (s) => s.matches('editing') && s.context.failure !== null);
    expect(failed.context.failure).toBe(BILLING_TERMS_MESSAGES.saveFailed);
    expect(failed.context.form.paymentTermsDays).toBe(60);
  });
});
