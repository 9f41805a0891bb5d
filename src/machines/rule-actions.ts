/**
 * The automatic actions of one rule on the Alert rules page: the data use rule (a row per usage
 * level) and the projected overage rule (its one level, 0). Each level is "Notify only" or one or
 * more actions, each proposed to an admin or taken at once, and for "Move to another plan" the plan.
 *
 *   editing   the levels' choices as made; the problem shows under them once Save was pressed
 *   saving    "Save actions" says it is working; the choices wait                     (tag: busy)
 *   saved     "Actions saved" beside the button, until the next change
 *   failed    the server's words beside the button (and a toast): the lines whose plan cannot
 *             take an action, say; Save tries again
 *
 * Only alerts:manage may save (`canEdit`); the server refuses the rest too. When the rule's own
 * form saves other levels, the page says so (`rule.levels`): the rows follow them.
 */
import { assign, fromPromise, setup } from 'xstate';
import type { AlertKind, AlertRuleWire } from '../domain/alerts';
import { AUTOMATION_MESSAGES, RULE_ACTIONS, ruleActionsProblem, type ActionMode, type RuleAction, type RuleActionWire } from '../domain/automation';
import type { LoadOutcome } from './resource';
import { submittingStates } from './submit';

export interface RuleActionsInput {
  rule: AlertRuleWire;
  canEdit: boolean;
}

export interface SaveActionsInput {
  kind: AlertKind;
  actions: RuleActionWire[];
}

export type SaveActionsOutcome = LoadOutcome<AlertRuleWire>;

export interface RuleActionsContext {
  kind: AlertKind;
  canEdit: boolean;
  /** One row each: the usage levels the rule watches, or [0] for projected overage. */
  levels: number[];
  /** In level order, then in the order of RULE_ACTIONS (what is sent). */
  actions: RuleActionWire[];
  /** Shown once Save was pressed with one; clears at the next change. */
  problem: string | null;
  failure: string | null;
}

export type RuleActionsEvent =
  | { type: 'user.notifyOnly'; level: number }
  | { type: 'user.action'; level: number; action: RuleAction; checked: boolean }
  | { type: 'user.mode'; level: number; action: RuleAction; mode: ActionMode }
  | { type: 'user.plan'; level: number; productReferenceId: string }
  | { type: 'user.save' }
  | { type: 'rule.levels'; levels: number[] };

export const SAVE_ACTIONS_FAILED = 'The actions could not be saved. Try again.';

/** The rows of a rule: its usage levels, or the one level of projected overage. */
export const actionLevels = (rule: Pick<AlertRuleWire, 'kind' | 'usageLevels'>): number[] => (rule.kind === 'usage' ? [...(rule.usageLevels ?? [])] : [0]);

const order = (a: RuleActionWire, b: RuleActionWire) => a.level - b.level || RULE_ACTIONS.indexOf(a.action) - RULE_ACTIONS.indexOf(b.action);
const sameAction = (level: number, action: RuleAction) => (a: RuleActionWire) => a.level === level && a.action === action;

/** The actions with `action` at `level` chosen (proposed until the admin says act) or not. */
export function chooseAction(actions: readonly RuleActionWire[], level: number, action: RuleAction, checked: boolean): RuleActionWire[] {
  const others = actions.filter((a) => !sameAction(level, action)(a));
  if (!checked) return others;
  const kept = actions.find(sameAction(level, action));
  return [...others, kept ?? { level, action, mode: 'propose', productReferenceId: null }].sort(order);
}

const ruleActionsSetup = setup({
  types: {
    context: {} as RuleActionsContext,
    events: {} as RuleActionsEvent,
    input: {} as RuleActionsInput,
  },
  actors: {
    saveActions: fromPromise<SaveActionsOutcome, SaveActionsInput>(async () => {
      throw new Error('saveActions is provided by the app');
    }),
  },
  actions: {
    clearLevel: assign(({ context }, level: number) => ({ actions: context.actions.filter((a) => a.level !== level), problem: null })),
    storeAction: assign(({ context }, { level, action, checked }: { level: number; action: RuleAction; checked: boolean }) => ({
      actions: chooseAction(context.actions, level, action, checked),
      problem: null,
    })),
    storeMode: assign(({ context }, { level, action, mode }: { level: number; action: RuleAction; mode: ActionMode }) => ({
      actions: context.actions.map((a) => (sameAction(level, action)(a) ? { ...a, mode } : a)),
      problem: null,
    })),
    storePlan: assign(({ context }, { level, productReferenceId }: { level: number; productReferenceId: string }) => ({
      actions: context.actions.map((a) => (sameAction(level, 'change_plan')(a) ? { ...a, productReferenceId } : a)),
      problem: null,
    })),
    // An action on a level the rule no longer watches could never run: it goes with its level.
    storeLevels: assign(({ context }, levels: number[]) => ({ levels, actions: context.actions.filter((a) => levels.includes(a.level)) })),
    storeProblem: assign(({ context }) => ({ problem: ruleActionsProblem(context.kind, context.actions, context.levels) })),
    /** What the server kept is what the rows show. */
    storeSaved: assign((_, outcome: SaveActionsOutcome) => (outcome.ok ? { levels: actionLevels(outcome.data), actions: [...outcome.data.actions].sort(order) } : {})),
    storeFailure: assign((_, message: string) => ({ failure: message })),
    clearFailure: assign({ failure: null }),
    notifySuccess: (_, _message: string) => {},
    notifyFailure: (_, _message: string) => {},
  },
  guards: {
    canSave: ({ context }) => context.canEdit && ruleActionsProblem(context.kind, context.actions, context.levels) === null,
    canEdit: ({ context }) => context.canEdit,
    isDone: (_, outcome: SaveActionsOutcome) => outcome.ok,
  },
});

const submitting = submittingStates(ruleActionsSetup);

// The choices, wherever the actions are not saving: a change leaves saved / failed for editing.
const choices = {
  'user.notifyOnly': { target: '#ruleActions.editing', actions: { type: 'clearLevel', params: ({ event }: { event: { level: number } }) => event.level } },
  'user.action': {
    target: '#ruleActions.editing',
    actions: { type: 'storeAction', params: ({ event }: { event: { level: number; action: RuleAction; checked: boolean } }) => event },
  },
  'user.mode': {
    target: '#ruleActions.editing',
    actions: { type: 'storeMode', params: ({ event }: { event: { level: number; action: RuleAction; mode: ActionMode } }) => event },
  },
  'user.plan': {
    target: '#ruleActions.editing',
    actions: { type: 'storePlan', params: ({ event }: { event: { level: number; productReferenceId: string } }) => event },
  },
  // Choices with a problem (a plan not chosen) stay, with the problem under them; nothing is sent.
  'user.save': [
    { guard: 'canSave', target: '#ruleActions.saving' },
    { guard: 'canEdit', actions: 'storeProblem' },
  ],
} as const;

export const ruleActionsMachine = ruleActionsSetup.createMachine({
  id: 'ruleActions',
  context: ({ input }) => ({
    kind: input.rule.kind,
    canEdit: input.canEdit,
    levels: actionLevels(input.rule),
    actions: [...input.rule.actions].sort(order),
    problem: null,
    failure: null,
  }),
  // The rule's levels may change under any step, a save of the actions included.
  on: { 'rule.levels': { actions: { type: 'storeLevels', params: ({ event }) => event.levels } } },
  initial: 'editing',
  states: {
    editing: { on: choices },
    saving: submitting({
      src: 'saveActions',
      input: ({ context }) => ({ kind: context.kind, actions: context.actions }),
      success: {
        target: 'saved',
        actions: [{ type: 'storeSaved', params: ({ event }) => event.output }, { type: 'notifySuccess', params: AUTOMATION_MESSAGES.actionsSaved }],
      },
      back: 'failed',
      failure: (why) => why?.trim() || SAVE_ACTIONS_FAILED,
    }),
    saved: { on: choices },
    failed: { on: choices },
  },
});

export type RuleActionsMachine = typeof ruleActionsMachine;
