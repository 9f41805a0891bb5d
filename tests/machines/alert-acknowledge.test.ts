import { describe, expect, it } from 'vitest';
import { waitFor } from 'xstate';
import { ALERT_MESSAGES } from '../../src/domain/alerts';
import { ACKNOWLEDGE_FAILED, acknowledgeReport } from '../../src/machines/alert-acknowledge';
import { ok, refused } from './scripted-actors';
import { ID_A, ID_B, acknowledgeOne, acknowledgeSelected, acknowledgedBoth, acknowledgedOne, cancel, confirm, dismiss, select, startAcknowledge } from './starters/alert-acknowledge';

describe('alert acknowledge machine', () => {
  it('acknowledges one row at once, without asking, then reports and tells the page', async () => {
    const { actor, called, notifySuccess, alertsAcknowledged } = startAcknowledge([ok({ acknowledged: [ID_A], unchanged: [], notFound: [] })]);
    actor.send(acknowledgeOne());
    expect(actor.getSnapshot().hasTag('busy')).toBe(true);
    const done = await waitFor(actor, (s) => s.matches('done'));
    expect(called('acknowledge').map((c) => c.input)).toEqual([{ ids: [ID_A] }]);
    expect(notifySuccess).toHaveBeenCalledExactlyOnceWith(ALERT_MESSAGES.acknowledged(1));
    expect(alertsAcknowledged).toHaveBeenCalledOnce();
    expect(acknowledgeReport(done.context.result!)).toBe('1 alert acknowledged');
  });

  it('asks first for a bulk of more than one, and cancelling sends nothing', () => {
    const { actor, called } = startAcknowledge();
    actor.send(select(ID_A, ID_B));
    actor.send(acknowledgeSelected);
    expect(actor.getSnapshot().value).toBe('confirming');
    expect(actor.getSnapshot().hasTag('open')).toBe(true);
    actor.send(cancel);
    expect(actor.getSnapshot().value).toBe('idle');
    expect(actor.getSnapshot().context.selection).toEqual([ID_A, ID_B]);
    expect(called('acknowledge')).toHaveLength(0);
  });

  it('a bulk of one goes straight through; an empty selection does nothing', async () => {
    const { actor, called } = startAcknowledge();
    expect(actor.getSnapshot().can(acknowledgeSelected)).toBe(false);
    actor.send(select(ID_B));
    actor.send(acknowledgeSelected);
    await waitFor(actor, (s) => s.matches('done'));
    expect(called('acknowledge').map((c) => c.input)).toEqual([{ ids: [ID_B] }]);
  });

  it('reports what it left unchanged, and keeps only those rows ticked', async () => {
    const { actor, notifySuccess } = startAcknowledge([ok(acknowledgedOne)]);
    actor.send(select(ID_A, ID_B));
    actor.send(acknowledgeSelected);
    actor.send(confirm);
    const done = await waitFor(actor, (s) => s.matches('done'));
    expect(notifySuccess).toHaveBeenCalledExactlyOnceWith('1 alert acknowledged, 1 unchanged');
    expect(done.context.selection).toEqual([ID_B]);
  });

  it('says so when every selected alert was already acknowledged', async () => {
    const { actor } = startAcknowledge([ok({ acknowledged: [], unchanged: [ID_A, ID_B], notFound: [] })]);
    actor.send(select(ID_A, ID_B));
    actor.send(acknowledgeSelected);
    actor.send(confirm);
    const done = await waitFor(actor, (s) => s.matches('done'));
    expect(acknowledgeReport(done.context.result!)).toBe(ALERT_MESSAGES.nothingToAcknowledge);
  });

  it("stops at failed with the server's words, keeps the ticks, and a second try goes through", async () => {
    const { actor, notifyFailure, alertsAcknowledged } = startAcknowledge([refused(ALERT_MESSAGES.acknowledgeTooMany), ok(acknowledgedBoth)]);
    actor.send(select(ID_A, ID_B));
    actor.send(acknowledgeSelected);
    actor.send(confirm);
    const failed = await waitFor(actor, (s) => s.matches('failed'));
    expect(failed.context.failure).toBe(ALERT_MESSAGES.acknowledgeTooMany);
    expect(failed.context.selection).toEqual([ID_A, ID_B]);
    expect(notifyFailure).toHaveBeenCalledExactlyOnceWith(ALERT_MESSAGES.acknowledgeTooMany);
    expect(alertsAcknowledged).not.toHaveBeenCalled();
    actor.send(acknowledgeSelected);
    expect(actor.getSnapshot().context.failure).toBeNull();
    actor.send(confirm);
    await waitFor(actor, (s) => s.matches('done'));
    expect(alertsAcknowledged).toHaveBeenCalledOnce();
  });

  it('says so when the request fails without an answer, and dismissing clears the report', async () => {
    const { actor } = startAcknowledge([new Error('network')]);
    actor.send(acknowledgeOne());
    expect((await waitFor(actor, (s) => s.matches('failed'))).context.failure).toBe(ACKNOWLEDGE_FAILED);
    actor.send(dismiss);
    expect(actor.getSnapshot().value).toBe('idle');
    expect(actor.getSnapshot().context.failure).toBeNull();
  });

  it('ignores ticks and clicks while an acknowledgement runs', () => {
    const { actor } = startAcknowledge(['hang']);
    actor.send(acknowledgeOne());
    actor.send(select(ID_B));
    actor.send(acknowledgeOne(ID_B));
    expect(actor.getSnapshot().value).toBe('submitting');
    expect(actor.getSnapshot().context).toMatchObject({ selection: [], ids: [ID_A] });
  });
});
