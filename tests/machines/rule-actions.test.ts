import { describe, expect, it } from 'vitest';
import { waitFor } from 'xstate';
import { AUTOMATION_MESSAGES } from '../../src/domain/automation';
import { SAVE_ACTIONS_FAILED, chooseAction } from '../../src/machines/rule-actions';
import { ruleWire } from '../fixtures/alerts';
import { ok, refused } from './scripted-actors';
import { PLAN, choose, mode, notifyOnly, plan, ruleLevels, save, startRuleActions, usageRule } from './starters/rule-actions';

describe('rule actions machine', () => {
  it('starts from the rule: one row per usage level, or the one level of projected overage', () => {
    expect(startRuleActions().actor.getSnapshot().context).toMatchObject({ levels: [80, 90, 100], actions: [] });
    const overage = ruleWire({ kind: 'overage_forecast', usageLevels: null, threshold: 25, actions: [{ level: 0, action: 'opt_out', mode: 'act', productReferenceId: null }] });
    expect(startRuleActions({ rule: overage, canEdit: true }).actor.getSnapshot().context).toMatchObject({ levels: [0], actions: overage.actions });
  });

  it('saves the chosen actions in level order, proposed unless the admin says act', async () => {
    const saved = ruleWire({ actions: [{ level: 90, action: 'opt_out', mode: 'act', productReferenceId: null }] });
    const { actor, called, notifySuccess } = startRuleActions(undefined, [ok(saved)]);
    actor.send(choose(100, 'block_sign_in'));
    actor.send(choose(90, 'opt_out'));
    actor.send(mode(90, 'opt_out', 'act'));
    actor.send(save);
    expect(actor.getSnapshot().hasTag('busy')).toBe(true);
    const done = await waitFor(actor, (s) => s.matches('saved'));
    expect(called('saveActions').map((c) => c.input)).toEqual([
      {
        kind: 'usage',
        actions: [
          { level: 90, action: 'opt_out', mode: 'act', productReferenceId: null },
          { level: 100, action: 'block_sign_in', mode: 'propose', productReferenceId: null },
        ],
      },
    ]);
    // What the server kept is what the rows show.
    expect(done.context.actions).toEqual(saved.actions);
    expect(notifySuccess).toHaveBeenCalledExactlyOnceWith(AUTOMATION_MESSAGES.actionsSaved);
  });

  it('needs a plan for "Move to another plan": the problem shows and nothing is sent until one is chosen', async () => {
    const { actor, called } = startRuleActions();
    actor.send(choose(100, 'change_plan'));
    actor.send(save);
    expect(actor.getSnapshot().value).toBe('editing');
    expect(actor.getSnapshot().context.problem).toBe(AUTOMATION_MESSAGES.planRequired);
    expect(called('saveActions')).toHaveLength(0);
    actor.send(plan(100));
    expect(actor.getSnapshot().context.problem).toBeNull();
    actor.send(save);
    await waitFor(actor, (s) => s.matches('saved'));
    expect(called('saveActions')[0]!.input).toEqual({ kind: 'usage', actions: [{ level: 100, action: 'change_plan', mode: 'propose', productReferenceId: PLAN }] });
  });

  it('"Notify only" clears the level\'s actions; unticking one keeps the others', () => {
    const { actor } = startRuleActions();
    actor.send(choose(90, 'opt_out'));
    actor.send(choose(90, 'stop_recurring_blocks'));
    actor.send(choose(100, 'opt_out'));
    actor.send(choose(90, 'opt_out', false));
    expect(actor.getSnapshot().context.actions.map((a) => `${a.level}:${a.action}`)).toEqual(['90:stop_recurring_blocks', '100:opt_out']);
    actor.send(notifyOnly(90));
    expect(actor.getSnapshot().context.actions.map((a) => `${a.level}:${a.action}`)).toEqual(['100:opt_out']);
  });

  it("shows the server's words when it refuses (lines whose plan cannot take the action), and Save tries again", async () => {
    const words = AUTOMATION_MESSAGES.linesCannotTake('opt_out', ['AST-1', 'AST-2'], 3);
    const { actor, notifyFailure } = startRuleActions(undefined, [refused(words), new Error('network')]);
    actor.send(choose(90, 'opt_out'));
    actor.send(save);
    expect((await waitFor(actor, (s) => s.matches('failed'))).context.failure).toBe(words);
    expect(notifyFailure).toHaveBeenCalledExactlyOnceWith(words);
    actor.send(save);
    expect(actor.getSnapshot().context.failure).toBeNull();
    expect((await waitFor(actor, (s) => s.matches('failed'))).context.failure).toBe(SAVE_ACTIONS_FAILED);
  });

  it("follows the rule's saved levels: an action on a level no longer watched goes with it", () => {
    const { actor } = startRuleActions();
    actor.send(choose(80, 'opt_out'));
    actor.send(choose(100, 'block_sign_in'));
    actor.send(ruleLevels([75, 100]));
    expect(actor.getSnapshot().context).toMatchObject({ levels: [75, 100], actions: [{ level: 100, action: 'block_sign_in' }] });
  });

  it('a reader cannot save', () => {
    const { actor, called } = startRuleActions({ rule: usageRule, canEdit: false });
    actor.send(choose(90, 'opt_out'));
    actor.send(save);
    expect(actor.getSnapshot().value).toBe('editing');
    expect(actor.getSnapshot().context.problem).toBeNull();
    expect(called('saveActions')).toHaveLength(0);
  });

  it('keeps the mode and plan of an action ticked again while it is still chosen', () => {
    const chosen = chooseAction([{ level: 90, action: 'change_plan', mode: 'act', productReferenceId: PLAN }], 90, 'change_plan', true);
    expect(chosen).toEqual([{ level: 90, action: 'change_plan', mode: 'act', productReferenceId: PLAN }]);
  });
});
