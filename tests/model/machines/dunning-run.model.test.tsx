// Ageing → Dunning policy → Run dunning now (dunningRun machine): its generated paths walked on the
// machine and through the /billing/ageing page (the button beside Save, "Running..." while it
// runs), plus a journey pinned by hand.
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { waitFor } from 'xstate';
import { LEDGER_MESSAGES } from '../../../src/domain/ledger';
import { RUN_FAILED, dunningRunMachine } from '../../../src/machines/dunning-run';
import { AGEING_TEXTS as T } from '../../../src/ui/billing/ageing/parts';
import { ageingAnswers, dunningRan, dunningReport, runDunning, startDunningRun } from '../../fixtures/ledger';
import { ok, refused } from '../../machines/scripted-actors';
import { defineModel, done, failed } from '../framework/model';
import { openPage, type PageScreen } from '../framework/screen';
import { modelSuite } from '../framework/suite';

const REFUSAL = 'Only those who manage billing run the dunning';

const panel = () => within(screen.getByRole('region', { name: T.policyTitle }));
const button = (name: string) => panel().getByRole('button', { name }) as HTMLButtonElement;

export const dunningRunModel = defineModel<typeof dunningRunMachine, PageScreen>({
  name: 'dunning-run',
  machine: dunningRunMachine,
  events: {
    'user.run': [runDunning],
  },
  actorResults: [done('runDunning', ok(dunningRan())), done('runDunning', refused(REFUSAL)), failed('runDunning', new TypeError('fetch failed'))],
  states: {
    idle: (s) => expect(s.hasTag('busy')).toBe(false),
    running: (s) => expect(s.hasTag('busy')).toBe(true),
  },
  ui: {
    // The policy is read from the fake API: the button sits in its form, beside Save.
    open: async (seam) => {
      const page = openPage('/billing/ageing', seam, ageingAnswers());
      await screen.findByRole('button', { name: T.runNow }, { timeout: 5000 });
      return page;
    },
    events: {
      'user.run': async ({ user }) => user.click(button(T.runNow)),
    },
    states: {
      idle: () => {
        expect(button(T.runNow).disabled).toBe(false);
        expect(panel().getByText(T.runHint)).toBeTruthy();
      },
      running: () => {
        expect(button(T.running).disabled).toBe(true);
        expect(panel().queryByRole('button', { name: T.runNow })).toBeNull();
      },
    },
  },
});

modelSuite(dunningRunModel);

describe('dunning run machine (pinned journeys)', () => {
  it('a run refused, one that failed, then one that ran: the ageing reloaded once, after the last', async () => {
    const report = dunningReport({ reminders: 2, finalNotices: 1, blocked: 0 });
    const { actor, called, notifySuccess, notifyFailure, reloadAgeing } = startDunningRun({ run: [refused(REFUSAL), new TypeError('fetch failed'), ok(dunningRan(report))] });
    for (const expected of [1, 2, 3]) {
      actor.send(runDunning);
      expect(actor.getSnapshot().matches('running')).toBe(true);
      await waitFor(actor, (s) => s.matches('idle') && called('runDunning').length === expected);
    }
    expect(notifyFailure.mock.calls).toEqual([[REFUSAL], [RUN_FAILED]]);
    expect(notifySuccess).toHaveBeenCalledExactlyOnceWith('Dunning ran: 2 reminders, 1 final notice, 0 blocked, 0 unblocked');
    expect(notifySuccess).toHaveBeenCalledWith(LEDGER_MESSAGES.dunningRan(report));
    expect(reloadAgeing).toHaveBeenCalledOnce();
  });
});
