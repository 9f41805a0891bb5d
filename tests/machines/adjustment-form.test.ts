import { describe, expect, it } from 'vitest';
import { waitFor } from 'xstate';
import { BILLING_MESSAGES } from '../../src/domain/billing';
import { ADJUSTMENT_FAILED, ADJUSTMENT_MESSAGES, adjustmentRefusal, amountProblem, validateAdjustmentForm } from '../../src/machines/adjustment-form';
import { adjustmentWire, cancel, direction, field, open, refusal, startAdjustmentForm, submit, usdTarget, yenTarget } from '../fixtures/statements';
import { ok } from './scripted-actors';

describe('the amount of a correction, read in the statement currency', () => {
  it('takes whole and decimal amounts up to the currency digits', () => {
    expect(amountProblem('12.50', 'USD')).toBeNull();
    expect(amountProblem(' 7 ', 'USD')).toBeNull();
    expect(amountProblem('1500', 'JPY')).toBeNull();
    expect(amountProblem('0.125', 'KWD')).toBeNull();
  });

  it('refuses more decimals than the currency has, in the money parser words', () => {
    expect(amountProblem('12.345', 'USD')).toBe('USD amounts have at most 2 decimals');
    expect(amountProblem('12.5', 'JPY')).toBe('JPY amounts have at most 0 decimals');
  });

  it('refuses blanks, words, commas, zero and negative amounts', () => {
    expect(amountProblem('  ', 'USD')).toBe(ADJUSTMENT_MESSAGES.amountRequired);
    expect(amountProblem('ten', 'USD')).toBe(ADJUSTMENT_MESSAGES.amountNotNumber('USD'));
    expect(amountProblem('1,200.00', 'USD')).toBe(ADJUSTMENT_MESSAGES.amountNotNumber('USD'));
    expect(amountProblem('0.00', 'USD')).toBe(ADJUSTMENT_MESSAGES.amountNotPositive);
    expect(amountProblem('-5', 'USD')).toBe(ADJUSTMENT_MESSAGES.amountNotPositive);
    expect(amountProblem('99999999999999999999', 'USD')).toBe(ADJUSTMENT_MESSAGES.amountTooLarge);
  });

  it('asks for a reason the customer can read, within its length', () => {
    expect(validateAdjustmentForm({ direction: 'credit', amount: '5', reason: '   ' }, 'USD')).toEqual({ reason: ADJUSTMENT_MESSAGES.reasonRequired });
    expect(validateAdjustmentForm({ direction: 'credit', amount: '5', reason: 'x'.repeat(201) }, 'USD')).toEqual({ reason: ADJUSTMENT_MESSAGES.reasonTooLong });
    expect(validateAdjustmentForm({ direction: 'charge', amount: '5', reason: 'Late fee' }, 'USD')).toEqual({});
  });
});

describe('where a refusal of a correction is shown', () => {
  it('puts the server field errors by their fields, whatever the path spelling', () => {
    expect(adjustmentRefusal(refusal(400, 'Invalid body', [{ path: 'body.amount', message: 'Too many decimals' }, { path: '/reason', message: 'Too long' }]))).toEqual({
      errors: { amount: 'Too many decimals', reason: 'Too long' },
      failure: null,
    });
  });

  it('puts a refusal that names no field above the form, with a fallback when it says nothing', () => {
    expect(adjustmentRefusal(refusal(404, BILLING_MESSAGES.customerNotFound))).toEqual({ errors: {}, failure: BILLING_MESSAGES.customerNotFound });
    expect(adjustmentRefusal(refusal(500, '  '))).toEqual({ errors: {}, failure: ADJUSTMENT_FAILED });
  });
});

describe('adjustment form machine', () => {
  it('checks the form on the client first: nothing is sent while the amount is not one the server could take', () => {
    const { actor, called } = startAdjustmentForm();
    actor.send(open(yenTarget));
    expect(actor.getSnapshot().hasTag('open')).toBe(true);
    actor.send(field('amount', '12.50'));
    actor.send(submit);
    expect(actor.getSnapshot().value).toBe('editing');
    expect(actor.getSnapshot().context.errors).toEqual({ amount: 'JPY amounts have at most 0 decimals', reason: ADJUSTMENT_MESSAGES.reasonRequired });
    // Editing a field clears its problem only.
    actor.send(field('amount', '1250'));
    expect(actor.getSnapshot().context.errors).toEqual({ reason: ADJUSTMENT_MESSAGES.reasonRequired });
    expect(called('saveAdjustment')).toHaveLength(0);
  });

  it('sends the trimmed form against the statement, closes with the confirmation and has the statement read again', async () => {
    const { actor, called, notifySuccess, adjustmentSaved } = startAdjustmentForm();
    actor.send(open());
    actor.send(direction('charge'));
    actor.send(field('amount', ' 12.50 '));
    actor.send(field('reason', '  Replacement cable  '));
    actor.send(submit);
    expect(actor.getSnapshot().hasTag('busy')).toBe(true);
    expect(actor.getSnapshot().can(cancel)).toBe(false);
    await waitFor(actor, (s) => s.matches('closed'));
    expect(called('saveAdjustment').map((c) => c.input)).toEqual([
      { customerId: usdTarget.customerId, currency: 'USD', direction: 'charge', amount: '12.50', reason: 'Replacement cable', againstStatementId: usdTarget.statementId },
    ]);
    expect(notifySuccess).toHaveBeenCalledExactlyOnceWith(BILLING_MESSAGES.adjustmentSaved);
    expect(adjustmentSaved).toHaveBeenCalledOnce();
  });

  it("puts the server's field error under the amount and keeps what was typed; the next try goes through", async () => {
    const { actor, notifyFailure, adjustmentSaved, called } = startAdjustmentForm([refusal(400, 'Invalid body', [{ path: 'amount', message: 'Amount is above the limit for one correction' }]), ok(adjustmentWire())]);
    actor.send(open());
    actor.send(field('amount', '90000'));
    actor.send(field('reason', 'Typo'));
    actor.send(submit);
    const back = await waitFor(actor, (s) => s.matches('editing') && s.context.errors.amount !== undefined);
    expect(back.context.errors.amount).toBe('Amount is above the limit for one correction');
    expect(back.context.failure).toBeNull();
    expect(back.context.form).toEqual({ direction: 'credit', amount: '90000', reason: 'Typo' });
    expect(notifyFailure).toHaveBeenCalledExactlyOnceWith('Invalid body');
    expect(adjustmentSaved).not.toHaveBeenCalled();
    actor.send(field('amount', '90'));
    actor.send(submit);
    await waitFor(actor, (s) => s.matches('closed'));
    expect(called('saveAdjustment')).toHaveLength(2);
  });

  it('a request that gets no answer leaves its failure above the form', async () => {
    const { actor, notifyFailure } = startAdjustmentForm([new Error('network')]);
    actor.send(open());
    actor.send(field('amount', '5'));
    actor.send(field('reason', 'Goodwill'));
    actor.send(submit);
    const back = await waitFor(actor, (s) => s.matches('editing') && s.context.failure !== null);
    expect(back.context.failure).toBe(ADJUSTMENT_FAILED);
    expect(notifyFailure).toHaveBeenCalledExactlyOnceWith(ADJUSTMENT_FAILED);
  });

  it('opens afresh for each statement: a cancelled form leaves nothing behind', () => {
    const { actor } = startAdjustmentForm();
    actor.send(open());
    actor.send(field('amount', '5'));
    actor.send(submit);
    actor.send(cancel);
    expect(actor.getSnapshot().value).toBe('closed');
    actor.send(open(yenTarget));
    expect(actor.getSnapshot().context).toEqual({ target: yenTarget, form: { direction: 'credit', amount: '', reason: '' }, errors: {}, failure: null });
  });
});
