// Customer Requests → Approve / Decline (requestReview machine): its generated paths walked on the
// machine and through the /requests page, plus journeys pinned by hand.
import { describe, expect, it } from 'vitest';
import { waitFor } from 'xstate';
import { REQUEST_MESSAGES } from '../../../src/domain/requests';
import { requestReviewMachine } from '../../../src/machines/request-review';
import { ok, refused } from '../../machines/scripted-actors';
import { approve, approved, close, confirm, decline, pending, reason, startReview } from '../../machines/starters/request-review';
import { defineModel, done, failed } from '../framework/model';
import type { PageScreen } from '../framework/screen';
import { modelSuite } from '../framework/suite';
import { requestReviewUi } from './requests-page';

export const requestReviewModel = defineModel<typeof requestReviewMachine, PageScreen>({
  name: 'request-review',
  machine: requestReviewMachine,
  events: {
    // The approved row's fixture is there to prove the guard holds a decided request back.
    'user.approve': [approve(), approve(approved)],
    'user.decline': [decline(), decline(approved)],
    'user.reason': [reason('Plan retired'), reason('')],
    'user.confirm': [confirm],
    'user.close': [close],
  },
  actorResults: [done('decide', ok(approved)), done('decide', refused('Refused')), failed('decide', new Error('boom'))],
  states: {
    closed: (s) => {
      expect(s.hasTag('open')).toBe(false);
      expect(s.hasTag('busy')).toBe(false);
    },
    confirming: (s) => {
      expect(s.hasTag('open')).toBe(true);
      expect(s.context).toMatchObject({ request: pending, action: 'approve' });
    },
    reason: (s) => {
      expect(s.hasTag('open')).toBe(true);
      expect(s.hasTag('busy')).toBe(false);
      expect(s.context.action).toBe('decline');
    },
    deciding: (s) => {
      expect(s.hasTag('busy')).toBe(true);
      expect(s.can(close)).toBe(false);
      expect(s.context.failure).toBeNull();
      if (s.context.action === 'decline') expect(s.context.reason.trim()).not.toBe('');
    },
  },
  ui: requestReviewUi,
});

modelSuite(requestReviewModel);

describe('request review machine (pinned journeys)', () => {
  it('a refused approval, then a decline with a reason: one decision, one reload', async () => {
    const { actor, calls, requestDecided, notifySuccess } = startReview([refused('Busy'), ok(approved)]);
    actor.send(approve());
    actor.send(confirm);
    await waitFor(actor, (s) => s.matches('confirming') && s.context.failure !== null);
    actor.send(close);
    actor.send(decline());
    actor.send(reason('No longer offered'));
    actor.send(confirm);
    const snapshot = await waitFor(actor, (s) => s.matches('closed'));
    expect(snapshot.context).toMatchObject({ action: 'decline', reason: 'No longer offered', failure: null });
    expect(calls.map((c) => c.input)).toEqual([
      { id: pending.id, action: 'approve' },
      { id: pending.id, action: 'decline', reason: 'No longer offered' },
    ]);
    expect(notifySuccess).toHaveBeenCalledExactlyOnceWith(REQUEST_MESSAGES.declined);
    expect(requestDecided).toHaveBeenCalledOnce();
  });
});
