import { describe, expect, it } from 'vitest';
import { waitFor } from 'xstate';
import { FALLBACK_LOAD_ERROR } from '../../src/machines/resource';
import { SUBSCRIPTION_MESSAGES } from '../../src/domain/subscriptions';
import { plan1TB, plan50, SL } from '../fixtures/subscriptions-client';
import { refused } from './scripted-actors';
import { back, cancel, changed, choose, confirm, current, next, open, startDialog, type Answers } from './starters/subscription-plan';

async function toConfirming(answers: Answers = {}) {
  const started = startDialog(answers);
  started.actor.send(open);
  await waitFor(started.actor, (s) => s.matches('choosing'));
  started.actor.send(choose(plan1TB.productReferenceId));
  started.actor.send(next);
  return started;
}

describe('subscription plan machine: choosing', () => {
  it('starts closed; opening shows the subscription and loads the offered plans', async () => {
    const { actor, called } = startDialog();
    expect(actor.getSnapshot().value).toBe('closed');
    actor.send(open);
    expect(actor.getSnapshot().value).toBe('loadingPlans');
    expect(actor.getSnapshot().hasTag('open')).toBe(true);
    const snapshot = await waitFor(actor, (s) => s.matches('choosing'));
    expect(snapshot.context).toEqual({ subscription: current, plans: [plan50, plan1TB], chosen: null, error: null });
    expect(called('loadPlans')).toHaveLength(1);
    // A line may only move to a plan of its own provider account: the plans asked for are that account's.
    expect(called('loadPlans')[0]!.input).toEqual({ accountId: current.accountId });
  });

  it('the current plan cannot be chosen, nor can a plan the provider does not offer', async () => {
    const { actor } = startDialog();
    actor.send(open);
    await waitFor(actor, (s) => s.matches('choosing'));
    expect(actor.getSnapshot().can(choose(plan50.productReferenceId))).toBe(false);
    actor.send(choose(plan50.productReferenceId));
    actor.send(choose('prod-unknown'));
    expect(actor.getSnapshot().context.chosen).toBeNull();
    expect(actor.getSnapshot().can(next)).toBe(false);
    actor.send(choose(plan1TB.productReferenceId));
    expect(actor.getSnapshot().context.chosen).toBe(plan1TB.productReferenceId);
    actor.send(next);
    expect(actor.getSnapshot().value).toBe('confirming');
  });

  it.each([
    ['a refusal', refused('Provider unavailable'), 'Provider unavailable'],
    ['a blank refusal', refused(' '), FALLBACK_LOAD_ERROR],
    ['a thrown error', new Error('boom'), FALLBACK_LOAD_ERROR],
  ])('plans that cannot be loaded (%s) show the reason and offer nothing', async (_name, failure, message) => {
    const { actor } = startDialog({ plans: [failure] });
    actor.send(open);
    const snapshot = await waitFor(actor, (s) => s.matches('choosing'));
    expect(snapshot.context).toMatchObject({ plans: [], error: message });
    expect(snapshot.can(choose(plan1TB.productReferenceId))).toBe(false);
  });

  it('cancelling while the plans load closes and aborts the request', () => {
    const { actor, called } = startDialog({ plans: ['hang'] });
    actor.send(open);
    actor.send(cancel);
    expect(actor.getSnapshot().value).toBe('closed');
    expect(called('loadPlans')[0]?.signal.aborted).toBe(true);
  });

  it('back from the confirmation returns to the plans with the choice kept', async () => {
    const { actor } = await toConfirming();
    actor.send(back);
    expect(actor.getSnapshot().value).toBe('choosing');
    expect(actor.getSnapshot().context.chosen).toBe(plan1TB.productReferenceId);
  });
});

describe('subscription plan machine: changing', () => {
  it('confirming changes the line to the chosen product, closes, toasts and tells the page', async () => {
    const { actor, called, notifySuccess, notifyFailure, planChanged } = await toConfirming();
    actor.send(confirm);
    expect(actor.getSnapshot().hasTag('busy')).toBe(true);
    expect(actor.getSnapshot().can(cancel)).toBe(false);
    expect(called('changePlan').map((c) => c.input)).toEqual([{ serviceLineNumber: SL, productReferenceId: plan1TB.productReferenceId }]);
    await waitFor(actor, (s) => s.matches('closed'));
    expect(notifySuccess).toHaveBeenCalledExactlyOnceWith(`${SL} is now on the 1 TB plan`);
    expect(planChanged).toHaveBeenCalledExactlyOnceWith(changed);
    expect(notifyFailure).not.toHaveBeenCalled();
  });

  it("a refusal returns to the confirmation with the provider's message and a failure toast", async () => {
    const { actor, notifyFailure, planChanged } = await toConfirming({ change: [refused('Product is not available for this service line')] });
    actor.send(confirm);
    const snapshot = await waitFor(actor, (s) => s.matches('confirming'));
    expect(snapshot.context.error).toBe('Product is not available for this service line');
    expect(notifyFailure).toHaveBeenCalledExactlyOnceWith('Failed to change plan: Product is not available for this service line');
    expect(planChanged).not.toHaveBeenCalled();
  });

  it('a thrown error reads as the fallback message, and confirming again clears it', async () => {
    const { actor, notifyFailure } = await toConfirming({ change: [new Error('network'), 'hang'] });
    actor.send(confirm);
    await waitFor(actor, (s) => s.matches('confirming'));
    expect(actor.getSnapshot().context.error).toBe(FALLBACK_LOAD_ERROR);
    expect(notifyFailure).toHaveBeenCalledExactlyOnceWith(SUBSCRIPTION_MESSAGES.planChangeFailed(FALLBACK_LOAD_ERROR));
    actor.send(confirm);
    expect(actor.getSnapshot().context.error).toBeNull();
  });

  it('opening again forgets the last choice and error', async () => {
    const { actor } = await toConfirming({ change: [refused('No')] });
    actor.send(confirm);
    await waitFor(actor, (s) => s.matches('confirming'));
    actor.send(cancel);
    actor.send(open);
    expect(actor.getSnapshot().context).toMatchObject({ plans: [], chosen: null, error: null });
  });
});
