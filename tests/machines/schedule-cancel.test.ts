import { describe, expect, it } from 'vitest';
import { waitFor } from 'xstate';
import { AUTOMATION_MESSAGES } from '../../src/domain/automation';
import { CANCEL_FAILED } from '../../src/machines/schedule-cancel';
import { ok, refused } from './scripted-actors';
import { cancelChange, close, confirm, doneChange, startScheduleCancel, upcomingChange } from './starters/schedule';

describe('schedule cancel machine', () => {
  it('asks first, then cancels once, toasts and reloads the schedule', async () => {
    const { actor, called, notifySuccess, changeCancelled } = startScheduleCancel();
    actor.send(cancelChange());
    expect(actor.getSnapshot().value).toBe('confirming');
    expect(called('cancelChange')).toHaveLength(0);
    actor.send(confirm);
    expect(actor.getSnapshot().can(close)).toBe(false);
    await waitFor(actor, (s) => s.matches('closed'));
    expect(called('cancelChange').map((c) => c.input)).toEqual([upcomingChange.id]);
    expect(notifySuccess).toHaveBeenCalledExactlyOnceWith(AUTOMATION_MESSAGES.cancelled);
    expect(changeCancelled).toHaveBeenCalledOnce();
  });

  it("goes back to the question with the server's words when it refuses, and says so when no answer comes", async () => {
    const { actor, notifyFailure, changeCancelled } = startScheduleCancel([refused(AUTOMATION_MESSAGES.notCancellable), new Error('network')]);
    actor.send(cancelChange());
    actor.send(confirm);
    const back = await waitFor(actor, (s) => s.matches('confirming') && s.context.failure !== null);
    expect(back.context.failure).toBe(AUTOMATION_MESSAGES.notCancellable);
    expect(notifyFailure).toHaveBeenCalledExactlyOnceWith(AUTOMATION_MESSAGES.notCancellable);
    actor.send(confirm);
    await waitFor(actor, (s) => s.matches('confirming') && s.context.failure === CANCEL_FAILED);
    expect(notifyFailure).toHaveBeenLastCalledWith(CANCEL_FAILED);
    expect(changeCancelled).not.toHaveBeenCalled();
  });

  it('offers nothing for a change that has already run', () => {
    const { actor } = startScheduleCancel([ok(doneChange)]);
    expect(actor.getSnapshot().can(cancelChange(doneChange))).toBe(false);
  });
});
