import { describe, expect, it } from 'vitest';
import { waitFor } from 'xstate';
import { BILLING_MESSAGES } from '../../src/domain/billing';
import { PRICE_FORM_TEXTS, amountProblem, priceRefusalPlacement, validatePriceForm } from '../../src/machines/price-form';
import {
  NEXT_MONTH,
  cancel,
  confirm,
  createPrice,
  priceExists,
  priceField,
  refusal,
  startPriceForm,
  submit,
  upcomingPrice,
  validPriceForm,
  withdraw,
} from '../fixtures/prices';
import { ok, refused } from './scripted-actors';

describe('price form rules', () => {
  it('reads amounts exactly for the currency: 3 decimals are refused in USD and taken in KWD, none in JPY', () => {
    expect(amountProblem('79.00', 'USD', 'Monthly price')).toBeNull();
    expect(amountProblem('79.005', 'USD', 'Monthly price')).toBe('Monthly price: USD amounts have at most 2 decimals');
    expect(amountProblem('79.005', 'KWD', 'Monthly price')).toBeNull();
    expect(amountProblem('7900.5', 'JPY', 'Monthly price')).toBe('Monthly price: JPY amounts have at most 0 decimals');
  });

  it('refuses what is not an amount, a negative one, and a blank one', () => {
    expect(amountProblem('12,50', 'USD', 'Top-up price')).toBe(PRICE_FORM_TEXTS.amountInvalid('Top-up price'));
    expect(amountProblem('1e3', 'USD', 'Top-up price')).toBe(PRICE_FORM_TEXTS.amountInvalid('Top-up price'));
    expect(amountProblem('-1', 'USD', 'Top-up price')).toBe(PRICE_FORM_TEXTS.amountNegative('Top-up price'));
    expect(amountProblem('  ', 'USD', 'Top-up price')).toBe(PRICE_FORM_TEXTS.amountRequired('Top-up price'));
  });

  it('names every field at fault, and none of a good form', () => {
    expect(validatePriceForm(validPriceForm)).toEqual({});
    const errors = validatePriceForm({ productReferenceId: '', currency: 'dollars', monthly: 'x', overagePerGb: '', topUp: '1', effectiveFrom: '2026-02-30', note: '' });
    expect(Object.keys(errors).sort()).toEqual(['currency', 'effectiveFrom', 'monthly', 'overagePerGb', 'productReferenceId']);
    expect(errors.currency).toBe(BILLING_MESSAGES.currencyInvalid);
  });

  it('puts a 409 under the date, named fields under their fields, and anything else above the form', () => {
    expect(priceRefusalPlacement(priceExists)).toEqual({ errors: { effectiveFrom: BILLING_MESSAGES.priceExists }, failure: null });
    expect(priceRefusalPlacement(refusal(400, 'Invalid body', [{ path: 'body.monthly', message: 'Too large' }]))).toEqual({ errors: { monthly: 'Too large' }, failure: null });
    expect(priceRefusalPlacement(refusal(403, 'Only administrators can do this'))).toEqual({ errors: {}, failure: 'Only administrators can do this' });
  });
});

describe('price form machine: new price', () => {
  it('sends nothing while an amount is bad, and shows each problem under its field', () => {
    const { actor, called } = startPriceForm();
    actor.send(createPrice());
    actor.send(priceField('monthly', '59.999'));
    actor.send(submit);
    const snapshot = actor.getSnapshot();
    expect(snapshot.value).toBe('editing');
    expect(snapshot.context.errors.monthly).toBe('Monthly price: USD amounts have at most 2 decimals');
    expect(called('savePrice')).toHaveLength(0);
    actor.send(priceField('monthly', '59.99'));
    expect(actor.getSnapshot().context.errors.monthly).toBeUndefined();
  });

  it('sends the form trimmed, with the currency in capitals, toasts, tells the page and closes', async () => {
    const { actor, called, notifySuccess, pricesChanged } = startPriceForm();
    actor.send(createPrice({ ...validPriceForm, currency: ' usd ', monthly: ' 59.00 ', note: '  new plan ' }));
    actor.send(submit);
    expect(actor.getSnapshot().hasTag('busy')).toBe(true);
    expect(actor.getSnapshot().can(cancel)).toBe(false);
    await waitFor(actor, (s) => s.matches('closed'));
    expect(called('savePrice').map((c) => c.input)).toEqual([
      { productReferenceId: 'ref-mobile', currency: 'USD', monthly: '59.00', overagePerGb: '1.50', topUp: '20', effectiveFrom: NEXT_MONTH, note: 'new plan' },
    ]);
    expect(notifySuccess).toHaveBeenCalledExactlyOnceWith(BILLING_MESSAGES.priceSaved);
    expect(pricesChanged).toHaveBeenCalledOnce();
  });

  it("comes back to the form with the server's 409 under the date, and the next date edit clears it", async () => {
    const { actor, notifyFailure, pricesChanged } = startPriceForm({ save: [priceExists] });
    actor.send(createPrice());
    actor.send(submit);
    const back = await waitFor(actor, (s) => s.matches('editing') && s.context.errors.effectiveFrom !== undefined);
    expect(back.context.errors.effectiveFrom).toBe(BILLING_MESSAGES.priceExists);
    expect(back.context.form).toEqual(validPriceForm);
    expect(notifyFailure).toHaveBeenCalledExactlyOnceWith(BILLING_MESSAGES.priceExists);
    expect(pricesChanged).not.toHaveBeenCalled();
    actor.send(priceField('effectiveFrom', '2099-01-01'));
    expect(actor.getSnapshot().context.errors.effectiveFrom).toBeUndefined();
  });

  it('a request that gets no answer comes back with the failure above the form', async () => {
    const { actor } = startPriceForm({ save: [new Error('network')] });
    actor.send(createPrice());
    actor.send(submit);
    const back = await waitFor(actor, (s) => s.matches('editing') && s.context.failure !== null);
    expect(back.context.failure).toBe(PRICE_FORM_TEXTS.saveFailed);
  });

  it('opening the form again starts from what the page gives, not from what was typed', () => {
    const { actor } = startPriceForm();
    actor.send(createPrice());
    actor.send(priceField('monthly', 'abc'));
    actor.send(submit);
    actor.send(cancel);
    actor.send(createPrice());
    expect(actor.getSnapshot().context).toMatchObject({ form: validPriceForm, errors: {}, failure: null });
  });
});

describe('price form machine: withdraw', () => {
  it('asks first, then withdraws the row it was given and tells the page', async () => {
    const { actor, called, notifySuccess, pricesChanged } = startPriceForm();
    actor.send(withdraw());
    expect(actor.getSnapshot().matches({ withdrawal: 'confirming' })).toBe(true);
    expect(called('withdrawPrice')).toHaveLength(0);
    actor.send(confirm);
    await waitFor(actor, (s) => s.matches('closed'));
    expect(called('withdrawPrice').map((c) => c.input)).toEqual([{ id: upcomingPrice.id }]);
    expect(notifySuccess).toHaveBeenCalledExactlyOnceWith(BILLING_MESSAGES.priceWithdrawn);
    expect(pricesChanged).toHaveBeenCalledOnce();
  });

  it("a refused withdrawal stays on the question with the server's words; Cancel closes it", async () => {
    const { actor, pricesChanged } = startPriceForm({ withdraw: [refused(BILLING_MESSAGES.priceInEffect)] });
    actor.send(withdraw());
    actor.send(confirm);
    const back = await waitFor(actor, (s) => s.matches({ withdrawal: 'confirming' }) && s.context.failure !== null);
    expect(back.context.failure).toBe(BILLING_MESSAGES.priceInEffect);
    actor.send(cancel);
    expect(actor.getSnapshot().value).toBe('closed');
    expect(pricesChanged).not.toHaveBeenCalled();
  });

  it('takes one change at a time: no withdrawal while the form is open', () => {
    const { actor } = startPriceForm({ save: [ok(null as never)] });
    actor.send(createPrice());
    expect(actor.getSnapshot().can(withdraw())).toBe(false);
  });
});
