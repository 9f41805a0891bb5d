// Schedule → Cancel (scheduleCancel machine): its generated paths walked on the machine and
// through the /schedule page, plus a journey pinned by hand.
import { describe, expect, it } from 'vitest';
import { waitFor } from 'xstate';
import { AUTOMATION_MESSAGES } from '../../../src/domain/automation';
import { scheduleCancelMachine } from '../../../src/machines/schedule-cancel';
import { ok, refused } from '../../machines/scripted-actors';
import { cancelChange, close, confirm, doneChange, startScheduleCancel, upcomingChange } from '../../machines/starters/schedule';
import { defineModel, done, failed } from '../framework/model';
import type { PageScreen } from '../framework/screen';
import { modelSuite } from '../framework/suite';
import { scheduleCancelUi } from './schedule-page';

export const scheduleCancelModel = defineModel<typeof scheduleCancelMachine, PageScreen>({
  name: 'schedule-cancel',
  machine: scheduleCancelMachine,
  events: {
    // The change that ran is there to prove the guard holds it back.
    'user.cancelChange': [cancelChange(upcomingChange), cancelChange(doneChange)],
    'user.confirm': [confirm],
    'user.close': [close],
  },
  actorResults: [
    done('cancelChange', ok({ ...upcomingChange, status: 'cancelled' })),
    done('cancelChange', refused(AUTOMATION_MESSAGES.notCancellable)),
    failed('cancelChange', new TypeError('fetch failed')),
  ],
  states: {
    closed: (s) => {
      expect(s.hasTag('open')).toBe(false);
      expect(s.can(cancelChange(doneChange))).toBe(false);
    },
    confirming: (s) => {
      expect(s.hasTag('open')).toBe(true);
      expect(s.hasTag('busy')).toBe(false);
      expect(s.context.change?.id).toBe(upcomingChange.id);
    },
    cancelling: (s) => {
      expect(s.hasTag('busy')).toBe(true);
      expect(s.can(close)).toBe(false);
      expect(s.context.failure).toBeNull();
    },
  },
  ui: scheduleCancelUi,
});

modelSuite(scheduleCancelModel);

describe('schedule cancel machine (pinned journeys)', () => {
  it('a refusal, then a close and a second try: one cancellation, one reload', async () => {
    const { actor, calls, changeCancelled, notifySuccess } = startScheduleCancel([refused(AUTOMATION_MESSAGES.notCancellable), ok({ ...upcomingChange, status: 'cancelled' as const })]);
    actor.send(cancelChange());
    actor.send(confirm);
    await waitFor(actor, (s) => s.matches('confirming') && s.context.failure !== null);
    actor.send(close);
    actor.send(cancelChange());
    expect(actor.getSnapshot().context.failure).toBeNull();
    actor.send(confirm);
    await waitFor(actor, (s) => s.matches('closed'));
    expect(calls.map((c) => c.input)).toEqual([upcomingChange.id, upcomingChange.id]);
    expect(notifySuccess).toHaveBeenCalledExactlyOnceWith(AUTOMATION_MESSAGES.cancelled);
    expect(changeCancelled).toHaveBeenCalledOnce();
  });
});
