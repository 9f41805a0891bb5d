import { describe, expect, it } from 'vitest';
import { waitFor } from 'xstate';
import { LEDGER_MESSAGES } from '../../src/domain/ledger';
import { RUN_FAILED, dunningRunView } from '../../src/machines/dunning-run';
import { dunningReport, dunningRan, runDunning, startDunningRun } from '../fixtures/ledger';
import { ok, refused } from './scripted-actors';

describe('dunning run machine', () => {
  it('runs the dunning, toasts the server’s words and has the page reload the ageing', async () => {
    const { actor, called, notifySuccess, notifyFailure, reloadAgeing } = startDunningRun();
    expect(dunningRunView(actor.getSnapshot()).running).toBe(false);
    actor.send(runDunning);
    expect(dunningRunView(actor.getSnapshot()).running).toBe(true);
    await waitFor(actor, (s) => s.matches('idle'));
    expect(called('runDunning')).toHaveLength(1);
    expect(notifySuccess).toHaveBeenCalledExactlyOnceWith('Dunning ran: 1 reminder, 0 final notices, 2 blocked, 0 unblocked');
    expect(reloadAgeing).toHaveBeenCalledOnce();
    expect(notifyFailure).not.toHaveBeenCalled();
  });

  it('ignores a second press while it runs', async () => {
    const { actor, called } = startDunningRun({ run: ['hang'] });
    actor.send(runDunning);
    actor.send(runDunning);
    expect(actor.getSnapshot().matches('running')).toBe(true);
    expect(called('runDunning')).toHaveLength(1);
  });

  it('toasts a refusal in the server’s words and reloads nothing; a failure in its own; then runs again', async () => {
    const report = dunningReport({ reminders: 0, blocked: 0, unblocked: 1 });
    const { actor, called, notifySuccess, notifyFailure, reloadAgeing } = startDunningRun({
      run: [refused('Only those who manage billing run the dunning'), new TypeError('fetch failed'), ok(dunningRan(report))],
    });
    actor.send(runDunning);
    await waitFor(actor, (s) => s.matches('idle') && notifyFailure.mock.calls.length === 1);
    actor.send(runDunning);
    await waitFor(actor, (s) => s.matches('idle') && notifyFailure.mock.calls.length === 2);
    expect(notifyFailure.mock.calls).toEqual([['Only those who manage billing run the dunning'], [RUN_FAILED]]);
    expect(reloadAgeing).not.toHaveBeenCalled();
    actor.send(runDunning);
    await waitFor(actor, (s) => s.matches('idle') && called('runDunning').length === 3 && notifySuccess.mock.calls.length === 1);
    expect(notifySuccess).toHaveBeenCalledWith(LEDGER_MESSAGES.dunningRan(report));
    expect(reloadAgeing).toHaveBeenCalledOnce();
  });

  it('stops the request when the page closes', async () => {
    const { actor, called } = startDunningRun({ run: ['hang'] });
    actor.send(runDunning);
    actor.stop();
    expect(called('runDunning')[0]!.signal.aborted).toBe(true);
  });
});
