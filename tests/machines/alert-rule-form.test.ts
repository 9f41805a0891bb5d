import { describe, expect, it } from 'vitest';
import { waitFor } from 'xstate';
import { ALERT_MESSAGES } from '../../src/domain/alerts';
import { AUTOMATION_MESSAGES } from '../../src/domain/automation';
import { OVERRIDE_KEY_REQUIRED, SAVE_RULE_FAILED, SUBSCRIBE_FAILED, overrideActionLevels, type SaveRuleInput } from '../../src/machines/alert-rule-form';
import { lineOverride, ruleWire } from '../fixtures/alerts';
import { ok, refused } from './scripted-actors';
import {
  actionMode,
  chooseAction,
  enabled,
  key,
  levels,
  notifyCustomer,
  notifyOnly,
  ownActions,
  plan,
  save,
  savedUsageRule,
  scope,
  startRuleForm,
  subscribe,
  threshold,
  usageRule,
} from './starters/alert-rule-form';

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

const payloads = (calls: Array<{ input: unknown }>) => calls.map((c) => (c.input as SaveRuleInput).payload);

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
      { kind: 'usage', target: 'override', payload: { scope: 'line', key: lineOverride.key, enabled: true, usageLevels: [50, 75], threshold: null, actions: null } },
    ]);
    expect(after.context.key).toBe('');
    expect(notifySuccess).toHaveBeenCalledExactlyOnceWith(ALERT_MESSAGES.overrideSaved);
    expect(saved).toHaveBeenCalledOnce();
  });

  it("carries own actions on the override's levels, from a copy of the rule's, with a plan before it is sent", async () => {
    const rule = ruleWire({ actions: [{ level: 90, action: 'opt_out', mode: 'act', productReferenceId: null }] });
    const { actor, called } = startRuleForm({ rule, canEdit: true, target: { type: 'override' } }, [ok(lineOverride)]);
    actor.send(key(lineOverride.key));
    actor.send(ownActions(true));
    expect(actor.getSnapshot().context.actions).toEqual(rule.actions);
    // Levels of its own: the rule's 90 % is no longer offered, and its action is left out.
    actor.send(levels('50, 75'));
    expect(overrideActionLevels(actor.getSnapshot().context)).toEqual([50, 75]);
    actor.send(chooseAction(75, 'change_plan', true));
    actor.send(actionMode(75, 'change_plan', 'act'));
    actor.send(chooseAction(50, 'block_sign_in', true));
    actor.send(save);
    expect(actor.getSnapshot().context.errors.actions).toBe(AUTOMATION_MESSAGES.planRequired);
    expect(called('saveRule')).toHaveLength(0);
    actor.send(plan(75, 'SUB-METERED-1TB'));
    expect(actor.getSnapshot().context.errors.actions).toBeNull();
    actor.send(notifyOnly(50));
    actor.send(save);
    await waitFor(actor, (s) => s.matches({ form: 'saved' }));
    expect(payloads(called('saveRule'))).toEqual([
      { scope: 'line', key: lineOverride.key, enabled: true, usageLevels: [50, 75], threshold: null, actions: [{ level: 75, action: 'change_plan', mode: 'act', productReferenceId: 'SUB-METERED-1TB' }] },
    ]);
  });

  it('sends "notify only" as no actions, "as the rule" as null, and no actions field for a rule without actions', async () => {
    const { actor, called } = startRuleForm({ rule: usageRule, canEdit: true, target: { type: 'override' } }, [ok(lineOverride), ok(lineOverride)]);
    actor.send(key(lineOverride.key));
    actor.send(ownActions(true));
    actor.send(save);
    await waitFor(actor, (s) => s.matches({ form: 'saved' }));
    actor.send(key(lineOverride.key));
    actor.send(ownActions(false));
    actor.send(save);
    await waitFor(actor, (s) => s.matches({ form: 'saved' }));
    expect(payloads(called('saveRule')).map((p) => ('actions' in p ? p.actions : undefined))).toEqual([[], null]);
    const offline = startRuleForm({ rule: ruleWire({ kind: 'offline', usageLevels: null, threshold: 60 }), canEdit: true, target: { type: 'override' } }, [ok(lineOverride)]);
    offline.actor.send(key(lineOverride.key));
    offline.actor.send(save);
    await waitFor(offline.actor, (s) => s.matches({ form: 'saved' }));
    expect(payloads(offline.called('saveRule'))[0]).not.toHaveProperty('actions');
  });
});
