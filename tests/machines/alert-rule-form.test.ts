import { describe, expect, it } from 'vitest';
import { waitFor } from 'xstate';
import { ALERT_MESSAGES } from '../../src/domain/alerts';
import { OVERRIDE_KEY_REQUIRED, SAVE_RULE_FAILED, SUBSCRIBE_FAILED } from '../../src/machines/alert-rule-form';
import { lineOverride, ruleWire } from '../fixtures/alerts';
import { ok, refused } from './scripted-actors';
import { enabled, key, levels, notifyCustomer, save, savedUsageRule, scope, startRuleForm, subscribe, threshold, usageRule } from './starters/alert-rule-form';

describe('alert rule form machine: a rule', () => {
  it('starts from the rule as the server holds it', () => {
    const { actor } = startRuleForm();
    expect(actor.getSnapshot().context).toMatchObject({ kind: 'usage', enabled: true, levels: '80, 90, 100', notifyCustomer: false, subscribed: false });
    expect(actor.getSnapshot().value).toEqual({ form: 'editing', subscription: 'idle' });
  });

  it('saves the levels parsed and sorted, then shows what the server kept', async () => {
    const { actor, called, notifySuccess, saved } = startRuleForm();
    actor.send(levels('100, 75%'));
    actor.send(notifyCustomer(true));
    actor.send(save);
    expect(actor.getSnapshot().hasTag('busy')).toBe(true);
    const after = await waitFor(actor, (s) => s.matches({ form: 'saved' }));
    expect(called('saveRule').map((c) => c.input)).toEqual([
      { kind: 'usage', target: 'rule', payload: { enabled: true, usageLevels: [75, 100], threshold: null, notifyCustomer: true } },
    ]);
    expect(after.context).toMatchObject({ levels: savedUsageRule.usageLevels!.join(', '), notifyCustomer: true });
    expect(notifySuccess).toHaveBeenCalledExactlyOnceWith(ALERT_MESSAGES.ruleSaved);
    expect(saved).toHaveBeenCalledOnce();
    actor.send(levels('80'));
    expect(actor.getSnapshot().matches({ form: 'editing' })).toBe(true);
  });

  it.each([
    ['', ALERT_MESSAGES.levelsRequired],
    ['80, 80', ALERT_MESSAGES.levelsRepeated],
    ['0, 50', ALERT_MESSAGES.levelOutOfRange],
    ['80, lots', ALERT_MESSAGES.levelOutOfRange],
    ['10, 20, 30, 40, 50, 60', ALERT_MESSAGES.levelsTooMany],
  ])('keeps levels "%s" with its problem and sends nothing', (text, problem) => {
    const { actor, called } = startRuleForm();
    actor.send(levels(text));
    actor.send(save);
    expect(actor.getSnapshot().matches({ form: 'editing' })).toBe(true);
    expect(actor.getSnapshot().context.errors.levels).toBe(problem);
    expect(called('saveRule')).toHaveLength(0);
    actor.send(levels('90'));
    expect(actor.getSnapshot().context.errors.levels).toBeNull();
  });

  it('checks a threshold against its bounds, and a rule switched off saves whatever it holds', async () => {
    const { actor, called } = startRuleForm({ rule: ruleWire({ kind: 'offline', usageLevels: null, threshold: 60 }), canEdit: true }, [ok(ruleWire({ kind: 'offline', enabled: false, usageLevels: null, threshold: 2 }))]);
    actor.send(threshold(2));
    actor.send(save);
    expect(actor.getSnapshot().context.errors.threshold).toBe(ALERT_MESSAGES.thresholdOutOfRange('offline'));
    actor.send(threshold(null));
    actor.send(save);
    expect(actor.getSnapshot().context.errors.threshold).toBe(ALERT_MESSAGES.thresholdRequired);
    actor.send(threshold(7.5));
    actor.send(save);
    expect(actor.getSnapshot().context.errors.threshold).toBe(ALERT_MESSAGES.thresholdWhole);
    actor.send(threshold(2));
    actor.send(enabled(false));
    expect(actor.getSnapshot().context.errors.threshold).toBeNull();
    actor.send(save);
    await waitFor(actor, (s) => s.matches({ form: 'saved' }));
    expect(called('saveRule').map((c) => c.input)).toEqual([
      { kind: 'offline', target: 'rule', payload: { enabled: false, usageLevels: null, threshold: 2, notifyCustomer: false } },
    ]);
  });

  it("stops at failed with the server's words, and an edit goes back to editing", async () => {
    const { actor, notifyFailure } = startRuleForm(undefined, [refused('Only administrators may change alert rules')]);
    actor.send(save);
    const failed = await waitFor(actor, (s) => s.matches({ form: 'failed' }));
    expect(failed.context.failure).toBe('Only administrators may change alert rules');
    expect(notifyFailure).toHaveBeenCalledExactlyOnceWith('Only administrators may change alert rules');
    actor.send(save);
    expect(actor.getSnapshot().context.failure).toBeNull();
  });

  it('says so when the save fails without an answer', async () => {
    const { actor } = startRuleForm(undefined, [new Error('network')]);
    actor.send(save);
    expect((await waitFor(actor, (s) => s.matches({ form: 'failed' }))).context.failure).toBe(SAVE_RULE_FAILED);
  });

  it('an admin without the admin role cannot save, but may flip their own emails', async () => {
    const { actor, called, notifySuccess } = startRuleForm({ rule: usageRule, canEdit: false });
    actor.send(levels('70'));
    actor.send(save);
    expect(actor.getSnapshot().matches({ form: 'editing' })).toBe(true);
    expect(actor.getSnapshot().context.errors.levels).toBeNull();
    actor.send(subscribe(true));
    expect(actor.getSnapshot().hasTag('switching')).toBe(true);
    await waitFor(actor, (s) => s.matches({ subscription: 'idle' }) && s.context.subscribed);
    expect(called('saveRule')).toHaveLength(0);
    expect(called('saveSubscription').map((c) => c.input)).toEqual([{ kind: 'usage', subscribed: true }]);
    expect(notifySuccess).toHaveBeenCalledExactlyOnceWith(ALERT_MESSAGES.subscribed);
  });

  it('a refused subscription leaves the switch as the server holds it, and says why', async () => {
    const { actor, notifyFailure } = startRuleForm(undefined, undefined, [refused('Session expired')]);
    actor.send(subscribe(true));
    await waitFor(actor, (s) => s.matches({ subscription: 'idle' }) && notifyFailure.mock.calls.length === 1);
    expect(actor.getSnapshot().context.subscribed).toBe(false);
    expect(notifyFailure).toHaveBeenCalledWith('Session expired');
  });

  it('an unanswered subscription says so', async () => {
    const { actor, notifyFailure } = startRuleForm(undefined, undefined, [new Error('network')]);
    actor.send(subscribe(true));
    await waitFor(actor, () => notifyFailure.mock.calls.length === 1);
    expect(notifyFailure).toHaveBeenCalledWith(SUBSCRIBE_FAILED);
  });
});

describe('alert rule form machine: an override', () => {
  it('needs a key, then saves the override and empties the form for the next one', async () => {
    const { actor, called, notifySuccess, saved } = startRuleForm({ rule: usageRule, canEdit: true, target: { type: 'override' } }, [ok(lineOverride)]);
    actor.send(save);
    expect(actor.getSnapshot().context.errors.key).toBe(OVERRIDE_KEY_REQUIRED);
    actor.send(scope('line'));
    actor.send(key(`  ${lineOverride.key} `));
    actor.send(levels('50, 75'));
    actor.send(save);
    const after = await waitFor(actor, (s) => s.matches({ form: 'saved' }));
    expect(called('saveRule').map((c) => c.input)).toEqual([
      { kind: 'usage', target: 'override', payload: { scope: 'line', key: lineOverride.key, enabled: true, usageLevels: [50, 75], threshold: null } },
    ]);
    expect(after.context.key).toBe('');
    expect(notifySuccess).toHaveBeenCalledExactlyOnceWith(ALERT_MESSAGES.overrideSaved);
    expect(saved).toHaveBeenCalledOnce();
  });
});
