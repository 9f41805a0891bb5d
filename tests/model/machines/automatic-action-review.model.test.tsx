// Automatic actions → Approve / Dismiss / Undo (actionReview machine): its generated paths walked
// on the machine and through the /alerts/actions page, plus a journey pinned by hand.
import { describe, expect, it } from 'vitest';
import { waitFor } from 'xstate';
import { AUTOMATION_MESSAGES } from '../../../src/domain/automation';
import { actionReviewMachine } from '../../../src/machines/automatic-action-review';
import { executedAction } from '../../fixtures/automatic-actions';
import { ok, refused } from '../../machines/scripted-actors';
import { approve, close, confirm, dismiss, proposed, settled, startActionReview, undo, undoable } from '../../machines/starters/automatic-action-review';
import { defineModel, done, failed } from '../framework/model';
import type { PageScreen } from '../framework/screen';
import { modelSuite } from '../framework/suite';
import { actionReviewUi } from './automatic-actions-page';

export const actionReviewModel = defineModel<typeof actionReviewMachine, PageScreen>({
  name: 'automatic-action-review',
  machine: actionReviewMachine,
  events: {
    // The settled action's fixtures are there to prove the guards hold it back.
    'user.approve': [approve(), approve(settled)],
    'user.dismiss': [dismiss()],
    'user.undo': [undo(), undo(settled)],
    'user.confirm': [confirm],
    'user.close': [close],
  },
  actorResults: [done('decideAction', ok(executedAction)), done('decideAction', refused('Refused')), failed('decideAction', new Error('boom'))],
  states: {
    closed: (s) => {
      expect(s.hasTag('open')).toBe(false);
      expect(s.hasTag('busy')).toBe(false);
    },
    confirming: (s) => {
      expect(s.hasTag('open')).toBe(true);
      expect(s.hasTag('busy')).toBe(false);
      if (s.context.verb === 'undo') expect(s.context.target).toMatchObject({ id: undoable.id, undoable: true });
      else expect(s.context.target).toMatchObject({ id: proposed.id, status: 'proposed' });
    },
    submitting: (s) => {
      expect(s.hasTag('busy')).toBe(true);
      expect(s.can(close)).toBe(false);
      expect(s.context.failure).toBeNull();
    },
  },
  ui: actionReviewUi,
});

modelSuite(actionReviewModel);

describe('action review machine (pinned journeys)', () => {
  it('a refused approval, then a dismissal instead: one decision, one reload', async () => {
    const { actor, calls, actionDecided, notifySuccess } = startActionReview([refused(AUTOMATION_MESSAGES.notWaiting), ok(executedAction)]);
    actor.send(approve());
    actor.send(confirm);
    await waitFor(actor, (s) => s.matches('confirming') && s.context.failure !== null);
    actor.send(close);
    actor.send(dismiss());
    expect(actor.getSnapshot().context.failure).toBeNull();
    actor.send(confirm);
    const snapshot = await waitFor(actor, (s) => s.matches('closed'));
    expect(snapshot.context).toMatchObject({ verb: 'dismiss', failure: null });
    expect(calls.map((c) => c.input)).toEqual([
      { id: proposed.id, verb: 'approve' },
      { id: proposed.id, verb: 'dismiss' },
    ]);
    expect(notifySuccess).toHaveBeenCalledExactlyOnceWith(AUTOMATION_MESSAGES.dismissed);
    expect(actionDecided).toHaveBeenCalledOnce();
  });
});
