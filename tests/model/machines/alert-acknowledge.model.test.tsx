// Alerts → Acknowledge (alertAcknowledge machine): its generated paths walked on the machine and
// through the /alerts page, plus a journey pinned by hand.
import { describe, expect, it } from 'vitest';
import { waitFor } from 'xstate';
import { alertAcknowledgeMachine } from '../../../src/machines/alert-acknowledge';
import { ok, refused } from '../../machines/scripted-actors';
import { ID_A, ID_B, acknowledgeOne, acknowledgeSelected, acknowledgedBoth, acknowledgedOne, cancel, confirm, dismiss, select, startAcknowledge } from '../../machines/starters/alert-acknowledge';
import { defineModel, done, failed } from '../framework/model';
import type { PageScreen } from '../framework/screen';
import { modelSuite } from '../framework/suite';
import { alertAcknowledgeUi } from './alerts-page';

export const alertAcknowledgeModel = defineModel<typeof alertAcknowledgeMachine, PageScreen>({
  name: 'alert-acknowledge',
  machine: alertAcknowledgeMachine,
  events: {
    'user.select': [select(ID_A), select(ID_A, ID_B), select()],
    'user.acknowledge': [acknowledgeOne(ID_A)],
    'user.acknowledgeSelected': [acknowledgeSelected],
    'user.confirm': [confirm],
    'user.cancel': [cancel],
    'user.dismiss': [dismiss],
  },
  actorResults: [
    done('acknowledge', ok(acknowledgedBoth)),
    // Nothing changed: the ticks stay, so a bulk can be asked for again from the report.
    done('acknowledge', ok({ acknowledged: [], unchanged: [ID_A, ID_B], notFound: [] })),
    done('acknowledge', refused('Refused')),
    failed('acknowledge', new Error('boom')),
  ],
  states: {
    idle: (s) => {
      expect(s.hasTag('busy')).toBe(false);
      expect(s.context.failure).toBeNull();
    },
    confirming: (s) => {
      expect(s.hasTag('open')).toBe(true);
      expect(s.context.ids.length).toBeGreaterThan(1);
    },
    submitting: (s) => {
      expect(s.hasTag('busy')).toBe(true);
      expect(s.context.ids.length).toBeGreaterThan(0);
      expect(s.context.failure).toBeNull();
    },
    done: (s) => expect(s.context.result).not.toBeNull(),
    failed: (s) => expect(s.context.failure).not.toBeNull(),
  },
  ui: alertAcknowledgeUi,
});

modelSuite(alertAcknowledgeModel);

describe('alert acknowledge machine (pinned journeys)', () => {
  it('a refused bulk, then a second try that leaves one unchanged: one report, one reload', async () => {
    const { actor, calls, alertsAcknowledged, notifySuccess } = startAcknowledge([refused('Busy'), ok(acknowledgedOne)]);
    actor.send(select(ID_A, ID_B));
    actor.send(acknowledgeSelected);
    actor.send(confirm);
    await waitFor(actor, (s) => s.matches('failed'));
    actor.send(acknowledgeSelected);
    actor.send(confirm);
    const snapshot = await waitFor(actor, (s) => s.matches('done'));
    expect(snapshot.context.selection).toEqual([ID_B]);
    expect(calls.map((c) => c.input)).toEqual([{ ids: [ID_A, ID_B] }, { ids: [ID_A, ID_B] }]);
    expect(notifySuccess).toHaveBeenCalledExactlyOnceWith('1 alert acknowledged, 1 unchanged');
    expect(alertsAcknowledged).toHaveBeenCalledOnce();
  });
});
