/**
 * One card of the Alert rules page: a rule's settings, or the "Add override" form under
 * a line rule (`input.target`), and the signed-in admin's own "Email me" switch. Two regions:
 *
 *   form.editing     the fields as typed; a problem shows under its field once Save was pressed
 *   form.saving      Save says it is working; the fields wait                        (tag: busy)
 *   form.saved       "Alert rule saved" beside the button, until the next change
 *   form.failed      the server's words beside the button (and a toast); Save tries again
 *
 *   subscription.idle       the switch shows `subscribed`
 *   subscription.switching  the switch waits while the server records the choice  (tag: switching)
 *
 * Only alerts:manage may save (`canEdit`, from the session; the server refuses the rest too);
 * any admin may flip their own subscription. A saved override tells the page (`saved`), which
 * reloads the rule's overrides.
 *
 * An override of the data use or projected overage rule also says what happens at its levels:
 * "as the rule" (`actions` null), or its own actions, chosen per level as on the rule's card. The
 * levels offered are the override's own usage levels once they are valid, else the rule's; an
 * action on a level not offered is kept while the levels are typed, and left out of what is sent.
 */
import { assign, fromPromise, setup } from 'xstate';
import {
  ALERT_MESSAGES,
  hasThreshold,
  parseUsageLevels,
  thresholdProblem,
  usageLevelsProblem,
  type AlertKind,
  type AlertOverridePayload,
  type AlertOverrideWire,
  type AlertRulePayload,
  type AlertRuleWire,
} from '../domain/alerts';
import { ACTION_ALERT_KINDS, ruleActionsProblem, type ActionMode, type RuleAction, type RuleActionWire } from '../domain/automation';
import type { LoadOutcome } from './resource';
import { actionLevels, chooseAction } from './rule-actions';
import { submittingStates } from './submit';

export type OverrideScope = 'customer' | 'line';

/** What the form saves: the rule itself, or an override of it for one customer or line. */
export type RuleFormTarget = { type: 'rule' } | { type: 'override' };

export interface AlertRuleFormInput {
  rule: AlertRuleWire;
  target?: RuleFormTarget;
  canEdit: boolean;
}

export type SaveRuleInput =
  | { kind: AlertKind; target: 'rule'; payload: AlertRulePayload }
  | { kind: AlertKind; target: 'override'; payload: AlertOverridePayload };
export type SaveRuleOutcome = LoadOutcome<AlertRuleWire | AlertOverrideWire>;
export type SubscriptionOutcome = LoadOutcome<AlertRuleWire>;

export interface RuleFormErrors {
  levels: string | null;
  threshold: string | null;
  key: string | null;
  actions: string | null;
}

export interface AlertRuleFormContext {
  kind: AlertKind;
  target: RuleFormTarget['type'];
  canEdit: boolean;
  enabled: boolean;
  /** The levels as typed: "80, 90, 100". */
  levels: string;
  threshold: number | null;
  notifyCustomer: boolean;
  /** Overrides only: whose, and the customer's uuid or the service line number. */
  scope: OverrideScope;
  key: string;
  /** Overrides of the data use and projected overage rules: their own actions; null: the rule's. */
  actions: RuleActionWire[] | null;
  /** The rule's levels and actions, which an override without its own follows. */
  ruleLevels: number[];
  ruleActions: RuleActionWire[];
  /** Shown once Save was pressed; each clears when its field changes. */
  errors: RuleFormErrors;
  failure: string | null;
  subscribed: boolean;
}

export type AlertRuleFormEvent =
  | { type: 'user.enabled'; value: boolean }
  | { type: 'user.levels'; value: string }
  | { type: 'user.threshold'; value: number | null }
  | { type: 'user.notifyCustomer'; value: boolean }
  | { type: 'user.scope'; value: OverrideScope }
  | { type: 'user.key'; value: string }
  | { type: 'user.ownActions'; value: boolean }
  | { type: 'user.notifyOnly'; level: number }
  | { type: 'user.action'; level: number; action: RuleAction; checked: boolean }
  | { type: 'user.mode'; level: number; action: RuleAction; mode: ActionMode }
  | { type: 'user.plan'; level: number; productReferenceId: string }
  | { type: 'user.save' }
  | { type: 'user.subscribe'; value: boolean };

export const SAVE_RULE_FAILED = 'The alert rule could not be saved. Try again.';
export const SUBSCRIBE_FAILED = 'Your email choice could not be saved. Try again.';
export const OVERRIDE_KEY_REQUIRED = 'Enter a customer or a service line number';

const NO_ERRORS: RuleFormErrors = { levels: null, threshold: null, key: null, actions: null };

/** Whether the form is an override that may carry actions of its own. */
export const hasOverrideActions = (context: Pick<AlertRuleFormContext, 'kind' | 'target'>) =>
  context.target === 'override' && (ACTION_ALERT_KINDS as readonly string[]).includes(context.kind);

/** The levels an override's actions sit on: its own usage levels once they are valid, else the rule's. */
export function overrideActionLevels(context: Pick<AlertRuleFormContext, 'kind' | 'levels' | 'ruleLevels'>): number[] {
  if (context.kind !== 'usage') return context.ruleLevels;
  const own = parseUsageLevels(context.levels);
  return own !== null && own.length > 0 && usageLevelsProblem(own) === null ? own : context.ruleLevels;
}

/** The override's own actions on the levels offered (what is shown and sent), or null: the rule's. */
export function overrideActions(context: Pick<AlertRuleFormContext, 'kind' | 'target' | 'levels' | 'ruleLevels' | 'actions'>): RuleActionWire[] | null {
  if (!hasOverrideActions(context) || context.actions === null) return null;
  const levels = overrideActionLevels(context);
  return context.actions.filter((a) => levels.includes(a.level));
}

type ProblemFields = 'kind' | 'target' | 'enabled' | 'levels' | 'threshold' | 'key' | 'actions' | 'ruleLevels';

/** The form's problems, field by field (the domain's rules; none for the fields the kind lacks). */
export function ruleFormProblems(context: Pick<AlertRuleFormContext, ProblemFields>): RuleFormErrors {
  const errors = { ...NO_ERRORS };
  if (context.target === 'override' && context.key.trim() === '') errors.key = OVERRIDE_KEY_REQUIRED;
  // Own actions are sent even by an override switched off, and the server checks them then too.
  const actions = overrideActions(context);
  if (actions !== null) errors.actions = ruleActionsProblem(context.kind, actions, overrideActionLevels(context));
  // A rule switched off keeps whatever it had; nothing it would measure needs to be right.
  if (!context.enabled) return errors;
  if (context.kind === 'usage') {
    const levels = parseUsageLevels(context.levels);
    errors.levels = levels === null ? ALERT_MESSAGES.levelOutOfRange : usageLevelsProblem(levels);
  } else {
    errors.threshold = thresholdProblem(context.kind, context.threshold);
  }
  return errors;
}

const hasProblem = (errors: RuleFormErrors) => Object.values(errors).some((e) => e !== null);

/** The request body of the form as it stands (call once it has no problem). */
export function saveRuleInput(context: AlertRuleFormContext): SaveRuleInput {
  const usageLevels = context.kind === 'usage' ? parseUsageLevels(context.levels) : null;
  const threshold = hasThreshold(context.kind) ? context.threshold : null;
  if (context.target === 'override') {
    const payload = { scope: context.scope, key: context.key.trim(), enabled: context.enabled, usageLevels, threshold };
    return { kind: context.kind, target: 'override', payload: hasOverrideActions(context) ? { ...payload, actions: overrideActions(context) } : payload };
  }
  return { kind: context.kind, target: 'rule', payload: { enabled: context.enabled, usageLevels, threshold, notifyCustomer: context.notifyCustomer } };
}

const levelsText = (levels: readonly number[] | null) => (levels ?? []).join(', ');

const alertRuleFormSetup = setup({
  types: {
    context: {} as AlertRuleFormContext,
    events: {} as AlertRuleFormEvent,
    input: {} as AlertRuleFormInput,
  },
  actors: {
    saveRule: fromPromise<SaveRuleOutcome, SaveRuleInput>(async () => {
      throw new Error('saveRule is provided by the app');
    }),
    saveSubscription: fromPromise<SubscriptionOutcome, { kind: AlertKind; subscribed: boolean }>(async () => {
      throw new Error('saveSubscription is provided by the app');
    }),
  },
  actions: {
    storeEnabled: assign(({ context }, value: boolean) => ({ enabled: value, errors: value ? context.errors : { ...NO_ERRORS, key: context.errors.key, actions: context.errors.actions } })),
    // The levels decide which actions are offered: their problem waits for the next Save.
    storeLevels: assign(({ context }, value: string) => ({ levels: value, errors: { ...context.errors, levels: null, actions: null } })),
    storeThreshold: assign(({ context }, value: number | null) => ({ threshold: value, errors: { ...context.errors, threshold: null } })),
    storeNotifyCustomer: assign((_, value: boolean) => ({ notifyCustomer: value })),
    storeScope: assign(({ context }, value: OverrideScope) => ({ scope: value, errors: { ...context.errors, key: null } })),
    storeKey: assign(({ context }, value: string) => ({ key: value, errors: { ...context.errors, key: null } })),
    /** Own actions start as a copy of the rule's; "as the rule" drops them. */
    storeOwnActions: assign(({ context }, value: boolean) => ({
      actions: value ? (context.actions ?? [...context.ruleActions]) : null,
      errors: { ...context.errors, actions: null },
    })),
    clearLevel: assign(({ context }, level: number) => ({
      actions: context.actions && context.actions.filter((a) => a.level !== level),
      errors: { ...context.errors, actions: null },
    })),
    storeAction: assign(({ context }, { level, action, checked }: { level: number; action: RuleAction; checked: boolean }) => ({
      actions: context.actions && chooseAction(context.actions, level, action, checked),
      errors: { ...context.errors, actions: null },
    })),
    storeMode: assign(({ context }, { level, action, mode }: { level: number; action: RuleAction; mode: ActionMode }) => ({
      actions: context.actions && context.actions.map((a) => (a.level === level && a.action === action ? { ...a, mode } : a)),
      errors: { ...context.errors, actions: null },
    })),
    storePlan: assign(({ context }, { level, productReferenceId }: { level: number; productReferenceId: string }) => ({
      actions: context.actions && context.actions.map((a) => (a.level === level && a.action === 'change_plan' ? { ...a, productReferenceId } : a)),
      errors: { ...context.errors, actions: null },
    })),
    storeProblems: assign(({ context }) => ({ errors: ruleFormProblems(context) })),
    /** A saved rule shows what the server kept; a saved override empties the form for the next one. */
    storeSaved: assign(({ context }, outcome: SaveRuleOutcome) => {
      if (!outcome.ok) return {};
      if (context.target === 'override') return { key: '', errors: NO_ERRORS };
      const rule = outcome.data;
      return { enabled: rule.enabled, levels: levelsText(rule.usageLevels), threshold: rule.threshold, notifyCustomer: 'notifyCustomer' in rule ? rule.notifyCustomer : context.notifyCustomer };
    }),
    storeSubscribed: assign((_, outcome: SubscriptionOutcome) => (outcome.ok ? { subscribed: outcome.data.subscribed } : {})),
    storeFailure: assign((_, message: string) => ({ failure: message })),
    clearFailure: assign({ failure: null }),
    notifySuccess: (_, _message: string) => {},
    notifyFailure: (_, _message: string) => {},
    /** The page reloads what the save changed (the rule's overrides and their count). */
    saved: () => {},
  },
  guards: {
    canSave: ({ context }) => context.canEdit && !hasProblem(ruleFormProblems(context)),
    canEdit: ({ context }) => context.canEdit,
    isDone: (_, outcome: SaveRuleOutcome) => outcome.ok,
    isSubscribed: (_, outcome: SubscriptionOutcome) => outcome.ok,
  },
});

const submitting = submittingStates(alertRuleFormSetup);

// The fields, wherever the form is not saving: a change leaves saved / failed for editing.
const fieldChanges = {
  'user.enabled': { target: '#alertRuleForm.form.editing', actions: { type: 'storeEnabled', params: ({ event }: { event: { value: boolean } }) => event.value } },
  'user.levels': { target: '#alertRuleForm.form.editing', actions: { type: 'storeLevels', params: ({ event }: { event: { value: string } }) => event.value } },
  'user.threshold': {
    target: '#alertRuleForm.form.editing',
    actions: { type: 'storeThreshold', params: ({ event }: { event: { value: number | null } }) => event.value },
  },
  'user.notifyCustomer': {
    target: '#alertRuleForm.form.editing',
    actions: { type: 'storeNotifyCustomer', params: ({ event }: { event: { value: boolean } }) => event.value },
  },
  'user.scope': { target: '#alertRuleForm.form.editing', actions: { type: 'storeScope', params: ({ event }: { event: { value: OverrideScope } }) => event.value } },
  'user.key': { target: '#alertRuleForm.form.editing', actions: { type: 'storeKey', params: ({ event }: { event: { value: string } }) => event.value } },
  'user.ownActions': {
    target: '#alertRuleForm.form.editing',
    actions: { type: 'storeOwnActions', params: ({ event }: { event: { value: boolean } }) => event.value },
  },
  'user.notifyOnly': { target: '#alertRuleForm.form.editing', actions: { type: 'clearLevel', params: ({ event }: { event: { level: number } }) => event.level } },
  'user.action': {
    target: '#alertRuleForm.form.editing',
    actions: { type: 'storeAction', params: ({ event }: { event: { level: number; action: RuleAction; checked: boolean } }) => event },
  },
  'user.mode': {
    target: '#alertRuleForm.form.editing',
    actions: { type: 'storeMode', params: ({ event }: { event: { level: number; action: RuleAction; mode: ActionMode } }) => event },
  },
  'user.plan': {
    target: '#alertRuleForm.form.editing',
    actions: { type: 'storePlan', params: ({ event }: { event: { level: number; productReferenceId: string } }) => event },
  },
  // A form with a problem stays, with each problem under its field; nothing is sent.
  'user.save': [
    { guard: 'canSave', target: '#alertRuleForm.form.saving' },
    { guard: 'canEdit', actions: 'storeProblems' },
  ],
} as const;

export const alertRuleFormMachine = alertRuleFormSetup.createMachine({
  id: 'alertRuleForm',
  context: ({ input }) => ({
    kind: input.rule.kind,
    target: input.target?.type ?? 'rule',
    canEdit: input.canEdit,
    enabled: input.target?.type === 'override' ? true : input.rule.enabled,
    levels: levelsText(input.rule.usageLevels),
    threshold: input.rule.threshold,
    notifyCustomer: input.rule.notifyCustomer,
    scope: 'line',
    key: '',
    actions: null,
    ruleLevels: actionLevels(input.rule),
    ruleActions: input.rule.actions,
    errors: NO_ERRORS,
    failure: null,
    subscribed: input.rule.subscribed,
  }),
  type: 'parallel',
  states: {
    form: {
      initial: 'editing',
      states: {
        editing: { on: fieldChanges },
        saving: submitting({
          src: 'saveRule',
          input: ({ context }) => saveRuleInput(context),
          success: {
            target: 'saved',
            actions: [
              { type: 'storeSaved', params: ({ event }) => event.output },
              { type: 'notifySuccess', params: ({ context }) => (context.target === 'override' ? ALERT_MESSAGES.overrideSaved : ALERT_MESSAGES.ruleSaved) },
              'saved',
            ],
          },
          back: 'failed',
          failure: (why) => why?.trim() || SAVE_RULE_FAILED,
        }),
        saved: { on: fieldChanges },
        failed: { on: fieldChanges },
      },
    },
    subscription: {
      initial: 'idle',
      states: {
        idle: { on: { 'user.subscribe': 'switching' } },
        switching: {
          tags: ['switching'],
          invoke: {
            id: 'saveSubscription',
            src: 'saveSubscription',
            input: ({ context, event }) => ({ kind: context.kind, subscribed: event.type === 'user.subscribe' ? event.value : !context.subscribed }),
            onDone: [
              {
                guard: { type: 'isSubscribed', params: ({ event }) => event.output },
                target: 'idle',
                actions: [
                  { type: 'storeSubscribed', params: ({ event }) => event.output },
                  { type: 'notifySuccess', params: ({ event }) => (event.output.ok && event.output.data.subscribed ? ALERT_MESSAGES.subscribed : ALERT_MESSAGES.unsubscribed) },
                ],
              },
              // Refused: the switch shows what the server still holds, and the toast says why.
              { target: 'idle', actions: { type: 'notifyFailure', params: ({ event }) => (event.output.ok ? SUBSCRIBE_FAILED : event.output.message.trim() || SUBSCRIBE_FAILED) } },
            ],
            onError: { target: 'idle', actions: { type: 'notifyFailure', params: SUBSCRIBE_FAILED } },
          },
        },
      },
    },
  },
});

export type AlertRuleFormMachine = typeof alertRuleFormMachine;
