// Alert rules → a rule's automatic actions (ruleActions machine): its generated paths walked on the
// machine and through the /alerts/rules page, plus a journey pinned by hand. The page is served the
// data use rule; the paths choose "Move to another plan" at 90 % (the action with a plan, and so
// with a problem to show), and the rule's own form saves the level 90 alone (`rule.levels`).
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { waitFor } from 'xstate';
import { AUTOMATION_MESSAGES, RULE_ACTION_LABELS, ruleActionsProblem } from '../../../src/domain/automation';
import { ruleActionsMachine } from '../../../src/machines/rule-actions';
import { SAVING_TEXT } from '../../../src/ui/alerts/AlertRulesView';
import { NOTIFY_ONLY, PLAN_LABEL, SAVE_ACTIONS, actionsFormName, levelName } from '../../../src/ui/alerts/RuleActionsEditor';
import { envelope, ruleWire } from '../../fixtures/alerts';
import { rulePlans } from '../../fixtures/automatic-actions';
import { ok, refused } from '../../machines/scripted-actors';
import { PLAN, choose, mode, notifyOnly, plan, ruleLevels, save, startRuleActions, usageRule } from '../../machines/starters/rule-actions';
import { defineModel, done, failed, type UiModel } from '../framework/model';
import { openPage, type PageScreen } from '../framework/screen';
import { modelSuite } from '../framework/suite';

const LEVEL = 90;
/** What the server keeps: the move at 90 %, proposed, to the first plan (so that saved choices can change). */
const savedRule = ruleWire({ actions: [{ level: LEVEL, action: 'change_plan', mode: 'propose', productReferenceId: rulePlans[0]!.productReferenceId }] });
const editor = () => within(screen.getByRole('form', { name: actionsFormName('usage') }));
const level = (value: number) => within(editor().getByRole('group', { name: levelName('usage', value) }));
const choice = () => within(editor().getByRole('group', { name: `${RULE_ACTION_LABELS.change_plan}, ${levelName('usage', LEVEL)}` }));
const box = (label: string) => choice().getByLabelText(label) as HTMLInputElement;
const saveButton = () => editor().getByRole('button', { name: new RegExp(`^(${SAVE_ACTIONS}|${SAVING_TEXT.replace(/\./g, '\\.')})$`) }) as HTMLButtonElement;
const ruleForm = () => within(screen.getByRole('form', { name: 'Data use rule' }));

type Snapshot = { context: { levels: number[]; actions: { level: number; action: string; mode: string; productReferenceId: string | null }[]; problem: string | null } };

function expectChoices({ context }: Snapshot) {
  expect(editor().getAllByRole('group', { name: /^(At \d+ %)$/ }).map((g) => g.querySelector('legend')!.textContent)).toEqual(context.levels.map((l) => levelName('usage', l)));
  if (!context.levels.includes(LEVEL)) return;
  const chosen = context.actions.find((a) => a.level === LEVEL && a.action === 'change_plan');
  expect((level(LEVEL).getByLabelText(NOTIFY_ONLY) as HTMLInputElement).checked).toBe(!context.actions.some((a) => a.level === LEVEL));
  expect(box(RULE_ACTION_LABELS.change_plan).checked).toBe(chosen !== undefined);
  if (chosen) {
    expect(box('Act, then notify').checked).toBe(chosen.mode === 'act');
    const planName = rulePlans.find((p) => p.productReferenceId === chosen.productReferenceId)?.name ?? 'Choose a plan';
    expect(choice().getByRole('combobox', { name: PLAN_LABEL }).textContent).toContain(planName);
  }
  if (context.problem) expect(editor().getByText(context.problem)).toBeTruthy();
}

const ui: UiModel<typeof ruleActionsMachine, PageScreen> = {
  open: async (seam) => {
    const page = openPage('/alerts/rules', seam, {
      'GET /api/v1/alert-rules': { body: envelope([usageRule]) },
      'GET /api/v1/alert-rules/usage/overrides': { body: envelope([]) },
      'GET /api/v1/subscriptions/plans': { body: envelope(rulePlans) },
      'PUT /api/v1/alert-rules/usage': ({ body }) => ({ body: envelope({ ...usageRule, ...(body as object) }) }),
    });
    await screen.findByRole('form', { name: actionsFormName('usage') }, { timeout: 5000 });
    return page;
  },
  // A box ticks what it does not show ticked; "Notify only" is there to untick the level's actions;
  // the mode and plan are offered once the action is chosen, and choosing the one shown sends nothing.
  drivable: (snapshot, event) => {
    const { actions, levels } = snapshot.context;
    const chosen = actions.find((a) => a.level === LEVEL && a.action === 'change_plan');
    if (event.type === 'user.action') return levels.includes(event.level) && event.checked !== (chosen !== undefined);
    if (event.type === 'user.notifyOnly') return levels.includes(event.level) && actions.some((a) => a.level === event.level);
    if (event.type === 'user.mode') return chosen !== undefined && chosen.mode !== event.mode;
    if (event.type === 'user.plan') return chosen !== undefined && chosen.productReferenceId !== event.productReferenceId;
    return true;
  },
  events: {
    'user.notifyOnly': async ({ user }, event) => user.click(level(event.level).getByLabelText(NOTIFY_ONLY)),
    'user.action': async ({ user }) => user.click(box(RULE_ACTION_LABELS.change_plan)),
    'user.mode': async ({ user }, event) => user.click(box(event.mode === 'act' ? 'Act, then notify' : 'Propose to an admin')),
    'user.plan': async ({ user }, event) => {
      await user.click(choice().getByRole('combobox', { name: PLAN_LABEL }));
      const name = rulePlans.find((p) => p.productReferenceId === event.productReferenceId)!.name;
      await user.click(within(await screen.findByRole('listbox')).getByRole('option', { name }));
    },
    'user.save': async ({ user }) => user.click(saveButton()),
    // The rule's own form saves the levels; the page tells the actions.
    'rule.levels': async ({ user }, event) => {
      const field = ruleForm().getByLabelText('Usage levels (% of the plan)');
      await user.clear(field);
      await user.type(field, event.levels.join(', '));
      await user.click(ruleForm().getByRole('button', { name: 'Save' }));
    },
  },
  states: {
    editing: (snapshot) => {
      expectChoices(snapshot);
      expect(saveButton().textContent).toBe(SAVE_ACTIONS);
      expect(editor().queryByText(AUTOMATION_MESSAGES.actionsSaved)).toBeNull();
    },
    saving: () => {
      expect(saveButton().textContent).toBe(SAVING_TEXT);
      expect(saveButton().disabled).toBe(true);
    },
    saved: (snapshot) => {
      expectChoices(snapshot);
      expect(editor().getByText(AUTOMATION_MESSAGES.actionsSaved)).toBeTruthy();
    },
    failed: (snapshot) => {
      expectChoices(snapshot);
      expect(editor().getByText(snapshot.context.failure!)).toBeTruthy();
    },
  },
};

// Saved or refused choices held no problem when they were sent, and nothing but a change of them
// (which leaves for editing) can give them one: the guard's other branch cannot be taken there.
const unreachable = {
  'ruleActions.saved: user.save #2': 'saved choices have no problem until a change, which leaves saved',
  'ruleActions.failed: user.save #2': 'refused choices had no problem when sent, and a change leaves failed',
};

export const ruleActionsModel = defineModel<typeof ruleActionsMachine, PageScreen>({
  name: 'rule-actions',
  machine: ruleActionsMachine,
  input: { rule: usageRule, canEdit: true },
  events: {
    'user.notifyOnly': [notifyOnly(LEVEL)],
    'user.action': [choose(LEVEL, 'change_plan'), choose(LEVEL, 'change_plan', false)],
    'user.mode': [mode(LEVEL, 'change_plan', 'act')],
    'user.plan': [plan(LEVEL, rulePlans[0]!.productReferenceId), plan(LEVEL, rulePlans[1]!.productReferenceId)],
    'user.save': [save],
    'rule.levels': [ruleLevels([LEVEL])],
  },
  actorResults: [done('saveActions', ok(savedRule)), done('saveActions', refused('Refused')), failed('saveActions', new Error('boom'))],
  states: {
    editing: (s) => expect(s.hasTag('busy')).toBe(false),
    saving: (s) => {
      expect(s.hasTag('busy')).toBe(true);
      expect(ruleActionsProblem(s.context.kind, s.context.actions, s.context.levels)).toBeNull();
      expect(s.context.failure).toBeNull();
    },
    saved: (s) => expect(s.context.failure).toBeNull(),
    failed: (s) => expect(s.context.failure).not.toBeNull(),
  },
  ui,
  exclude: { machine: { transitions: unreachable }, ui: { transitions: unreachable } },
});

modelSuite(ruleActionsModel);

describe('rule actions machine (pinned journeys)', () => {
  it('a plan move without its plan, then with it and acting at once: one save of what was chosen', async () => {
    const kept = ruleWire({ actions: [{ level: 100, action: 'change_plan', mode: 'act', productReferenceId: PLAN }] });
    const { actor, calls, notifySuccess } = startRuleActions(undefined, [ok(kept)]);
    actor.send(choose(100, 'change_plan'));
    actor.send(save);
    expect(actor.getSnapshot().context.problem).toBe(AUTOMATION_MESSAGES.planRequired);
    actor.send(plan(100));
    actor.send(mode(100, 'change_plan', 'act'));
    actor.send(save);
    const snapshot = await waitFor(actor, (s) => s.matches('saved'));
    expect(snapshot.context).toMatchObject({ actions: kept.actions, problem: null, failure: null });
    expect(calls.map((c) => c.input)).toEqual([{ kind: 'usage', actions: kept.actions }]);
    expect(notifySuccess).toHaveBeenCalledExactlyOnceWith(AUTOMATION_MESSAGES.actionsSaved);
  });
});
