import { describe, expect, it } from 'vitest';
import { waitFor } from 'xstate';
import { REQUEST_MESSAGES } from '../../src/domain/requests';
import { REVIEW_FAILED } from '../../src/machines/request-review';
import { ok, refused } from './scripted-actors';
import { approve, approved, close, confirm, decline, pending, reason, startReview } from './starters/request-review';

describe('request review machine: approve', () => {
  it('asks first, then approves once, toasts and reloads the queue', async () => {
    const { actor, called, notifySuccess, requestDecided } = startReview();
    actor.send(approve());
    expect(actor.getSnapshot().value).toBe('confirming');
    expect(called('decide')).toHaveLength(0);
    actor.send(confirm);
    expect(actor.getSnapshot().hasTag('busy')).toBe(true);
    expect(actor.getSnapshot().can(close)).toBe(false);
    await waitFor(actor, (s) => s.matches('closed'));
    expect(called('decide').map((c) => c.input)).toEqual([{ id: pending.id, action: 'approve' }]);
    expect(notifySuccess).toHaveBeenCalledExactlyOnceWith(REQUEST_MESSAGES.approved);
    expect(requestDecided).toHaveBeenCalledOnce();
  });

  it("goes back to the confirmation with the provider's words when it refuses, and succeeds on a second try", async () => {
    const { actor, notifyFailure, requestDecided } = startReview([refused('Product X is not available on this account'), ok(approved)]);
    actor.send(approve());
    actor.send(confirm);
    const back = await waitFor(actor, (s) => s.matches('confirming') && s.context.failure !== null);
    expect(back.context.failure).toBe('Product X is not available on this account');
    expect(notifyFailure).toHaveBeenCalledExactlyOnceWith('Product X is not available on this account');
    expect(requestDecided).not.toHaveBeenCalled();
    actor.send(confirm);
    expect(actor.getSnapshot().context.failure).toBeNull();
    await waitFor(actor, (s) => s.matches('closed'));
    expect(requestDecided).toHaveBeenCalledOnce();
  });

  it('says so when the request fails without an answer', async () => {
    const { actor } = startReview([new Error('network')]);
    actor.send(approve());
    actor.send(confirm);
    expect((await waitFor(actor, (s) => s.matches('confirming') && s.context.failure !== null)).context.failure).toBe(REVIEW_FAILED);
  });

  it('offers nothing for a request that is no longer pending', () => {
    const { actor } = startReview();
    expect(actor.getSnapshot().can(approve(approved))).toBe(false);
    expect(actor.getSnapshot().can(decline(approved))).toBe(false);
  });
});

describe('request review machine: decline', () => {
  it('needs a reason: an empty one stays with its message and sends nothing', () => {
    const { actor, called } = startReview();
    actor.send(decline());
    actor.send(reason('   '));
    actor.send(confirm);
    expect(actor.getSnapshot().value).toBe('reason');
    expect(actor.getSnapshot().context.reasonError).toBe(REQUEST_MESSAGES.reasonRequired);
    expect(called('decide')).toHaveLength(0);
    actor.send(reason('x'));
    expect(actor.getSnapshot().context.reasonError).toBeNull();
  });

  it('sends the trimmed reason, and a refusal comes back to the reason as typed', async () => {
    const { actor, called, notifySuccess } = startReview([refused('This request was already cancelled'), ok(approved)]);
    actor.send(decline());
    actor.send(reason('  Plan retired  '));
    actor.send(confirm);
    const back = await waitFor(actor, (s) => s.matches('reason') && s.context.failure !== null);
    expect(back.context).toMatchObject({ reason: '  Plan retired  ', failure: 'This request was already cancelled' });
    actor.send(confirm);
    await waitFor(actor, (s) => s.matches('closed'));
    expect(called('decide').map((c) => c.input)).toEqual([
      { id: pending.id, action: 'decline', reason: 'Plan retired' },
      { id: pending.id, action: 'decline', reason: 'Plan retired' },
    ]);
    expect(notifySuccess).toHaveBeenCalledExactlyOnceWith(REQUEST_MESSAGES.declined);
  });

  it('closing forgets the reason: the next decline starts empty', () => {
    const { actor } = startReview();
    actor.send(decline());
    actor.send(reason('Half typed'));
    actor.send(close);
    actor.send(decline());
    expect(actor.getSnapshot().context).toMatchObject({ reason: '', reasonError: null, failure: null, action: 'decline' });
  });
});
