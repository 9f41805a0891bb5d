import { describe, expect, it } from 'vitest';
import { waitFor } from 'xstate';
import { AUTOMATION_MESSAGES } from '../../src/domain/automation';
import { ACTION_DECIDE_FAILED } from '../../src/machines/automatic-action-review';
import { ok, refused } from './scripted-actors';
import { approve, close, confirm, dismiss, proposed, settled, startActionReview, undo, undoable } from './starters/automatic-action-review';
import { executedAction } from '../fixtures/automatic-actions';

describe('action review machine', () => {
  it('asks before approving, approves once, toasts and has the page reload', async () => {
    const { actor, called, notifySuccess, actionDecided } = startActionReview();
    actor.send(approve());
    expect(actor.getSnapshot().value).toBe('confirming');
    expect(called('decideAction')).toHaveLength(0);
    actor.send(confirm);
    expect(actor.getSnapshot().hasTag('busy')).toBe(true);
    expect(actor.getSnapshot().can(close)).toBe(false);
    await waitFor(actor, (s) => s.matches('closed'));
    expect(called('decideAction').map((c) => c.input)).toEqual([{ id: proposed.id, verb: 'approve' }]);
    expect(notifySuccess).toHaveBeenCalledExactlyOnceWith(AUTOMATION_MESSAGES.approved);
    expect(actionDecided).toHaveBeenCalledOnce();
  });

  it('dismisses and undoes with their own words', async () => {
    const { actor, called, notifySuccess } = startActionReview();
    actor.send(dismiss());
    actor.send(confirm);
    await waitFor(actor, (s) => s.matches('closed'));
    actor.send(undo());
    actor.send(confirm);
    await waitFor(actor, (s) => s.matches('closed'));
    expect(called('decideAction').map((c) => c.input)).toEqual([
      { id: proposed.id, verb: 'dismiss' },
      { id: undoable.id, verb: 'undo' },
    ]);
    expect(notifySuccess.mock.calls).toEqual([[AUTOMATION_MESSAGES.dismissed], [AUTOMATION_MESSAGES.undone]]);
  });

  it("stays on the question with the server's words when it refuses, and a second try goes through", async () => {
    const { actor, notifyFailure, actionDecided } = startActionReview([refused(AUTOMATION_MESSAGES.notWaiting), ok(executedAction)]);
    actor.send(approve());
    actor.send(confirm);
    const back = await waitFor(actor, (s) => s.matches('confirming') && s.context.failure !== null);
    expect(back.context.failure).toBe(AUTOMATION_MESSAGES.notWaiting);
    expect(notifyFailure).toHaveBeenCalledExactlyOnceWith(AUTOMATION_MESSAGES.notWaiting);
    expect(actionDecided).not.toHaveBeenCalled();
    actor.send(confirm);
    expect(actor.getSnapshot().context.failure).toBeNull();
    await waitFor(actor, (s) => s.matches('closed'));
    expect(actionDecided).toHaveBeenCalledOnce();
  });

  it('says so when the request fails without an answer', async () => {
    const { actor } = startActionReview([new Error('network')]);
    actor.send(undo());
    actor.send(confirm);
    expect((await waitFor(actor, (s) => s.matches('confirming') && s.context.failure !== null)).context.failure).toBe(ACTION_DECIDE_FAILED);
  });

  it('offers nothing on an action that is no longer proposed or cannot be undone', () => {
    const { actor } = startActionReview();
    expect(actor.getSnapshot().can(approve(settled))).toBe(false);
    expect(actor.getSnapshot().can(dismiss(undoable))).toBe(false);
    expect(actor.getSnapshot().can(undo(settled))).toBe(false);
  });
});
