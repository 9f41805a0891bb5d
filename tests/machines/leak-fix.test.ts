import { describe, expect, it } from 'vitest';
import { waitFor } from 'xstate';
import { BILLING_MESSAGES } from '../../src/domain/billing';
import { LEAK_FIX_TEXTS } from '../../src/machines/leak-fix';
import { CYCLE, belowCostLeak, cancel, confirm, fixEvent, handledLeak, resolved, startLeakFix, unassignedLeak } from '../fixtures/reconciliation';
import { ok, refused } from './scripted-actors';

describe('leak fix machine', () => {
  it('a fix that changes nothing the customer receives is sent at once, and the page hears of the leak as handled', async () => {
    const fixedLeak = resolved(belowCostLeak, 'raise_list_price');
    const { actor, called, notifySuccess, leakFixed } = startLeakFix([ok(fixedLeak)]);
    actor.send(fixEvent(belowCostLeak, 'raise_list_price'));
    expect(actor.getSnapshot().hasTag('busy')).toBe(true);
    expect(actor.getSnapshot().hasTag('open')).toBe(false);
    const done = await waitFor(actor, (s) => s.matches('done'));
    expect(called('fixLeak').map((c) => c.input)).toEqual([{ cycle: CYCLE, kind: 'below_cost', key: belowCostLeak.key, action: 'raise_list_price' }]);
    expect(done.context.fixed).toEqual(fixedLeak);
    expect(notifySuccess).toHaveBeenCalledExactlyOnceWith(BILLING_MESSAGES.leakFixed);
    expect(leakFixed).toHaveBeenCalledExactlyOnceWith(fixedLeak);
  });

  it('cancelling a line asks first, and sends nothing until confirmed', async () => {
    const { actor, called, leakFixed } = startLeakFix([ok(resolved(unassignedLeak, 'cancel_line'))]);
    actor.send(fixEvent(unassignedLeak, 'cancel_line'));
    expect(actor.getSnapshot().matches({ dialog: 'confirming' })).toBe(true);
    expect(called('fixLeak')).toHaveLength(0);
    actor.send(confirm);
    expect(actor.getSnapshot().matches({ dialog: 'fixing' })).toBe(true);
    await waitFor(actor, (s) => s.matches('done'));
    expect(called('fixLeak').map((c) => c.input)).toEqual([{ cycle: CYCLE, kind: 'unassigned', key: unassignedLeak.key, action: 'cancel_line' }]);
    expect(leakFixed).toHaveBeenCalledOnce();
  });

  it('keeping the line closes the question without a request', () => {
    const { actor, called } = startLeakFix();
    actor.send(fixEvent(unassignedLeak, 'cancel_line'));
    actor.send(cancel);
    expect(actor.getSnapshot().value).toBe('idle');
    expect(called('fixLeak')).toHaveLength(0);
  });

  it("a refused cancellation stays on the question with the server's words", async () => {
    const { actor, notifyFailure, leakFixed } = startLeakFix([refused(BILLING_MESSAGES.leakNotFound)]);
    actor.send(fixEvent(unassignedLeak, 'cancel_line'));
    actor.send(confirm);
    const back = await waitFor(actor, (s) => s.matches({ dialog: 'confirming' }) && s.context.failure !== null);
    expect(back.context.failure).toBe(BILLING_MESSAGES.leakNotFound);
    expect(notifyFailure).toHaveBeenCalledExactlyOnceWith(BILLING_MESSAGES.leakNotFound);
    expect(leakFixed).not.toHaveBeenCalled();
  });

  it('a fix with no answer goes back to the board with the failure kept for its leak', async () => {
    const { actor } = startLeakFix([new Error('network')]);
    actor.send(fixEvent(unassignedLeak, 'mark_checked'));
    const back = await waitFor(actor, (s) => s.matches('idle') && s.context.failure !== null);
    expect(back.context.failure).toBe(LEAK_FIX_TEXTS.failed);
    expect(back.context.leak?.key).toBe(unassignedLeak.key);
  });

  it('refuses a fix the leak does not offer, a handled leak, and a second fix while one runs', () => {
    const { actor } = startLeakFix(['hang']);
    expect(actor.getSnapshot().can(fixEvent(unassignedLeak, 'bill_top_ups'))).toBe(false);
    expect(actor.getSnapshot().can(fixEvent(handledLeak, 'mark_checked'))).toBe(false);
    actor.send(fixEvent(unassignedLeak, 'mark_checked'));
    expect(actor.getSnapshot().can(fixEvent(belowCostLeak, 'mark_checked'))).toBe(false);
  });

  it('after a fix the next one is offered at once, and its failure replaces nothing of the last success', async () => {
    const { actor, called } = startLeakFix([ok(resolved(unassignedLeak, 'mark_checked')), refused('Not allowed')]);
    actor.send(fixEvent(unassignedLeak, 'mark_checked'));
    await waitFor(actor, (s) => s.matches('done'));
    actor.send(fixEvent(belowCostLeak, 'mark_checked'));
    const back = await waitFor(actor, (s) => s.matches('idle'));
    expect(back.context.failure).toBe('Not allowed');
    expect(back.context.fixed?.key).toBe(unassignedLeak.key);
    expect(called('fixLeak')).toHaveLength(2);
  });
});
