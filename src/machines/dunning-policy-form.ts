/**
 * Ageing → Dunning policy: when overdue customers are reminded, given the final notice and
 * blocked, read when the page opens and saved by those who manage billing (the others see it).
 *
 *   loading    "Loading the dunning policy..."                                   (tag: loading)
 *   failed     why it could not be read, with Try again
 *   editing    the policy: on or off, up to three reminders, the final notice (or none) and the
 *              block (or never), in days after the due date, and whether the block proposes
 *              ending the customer's lines. A problem sits under its field once Save was pressed
 *              and clears when the field changes; the server's refusal (400) sits above the form
 *   saving     "Saving..."                                                          (tag: busy)
 *
 * Saved, the form shows what the server stored, with a toast.
 */
import { assign, fromPromise, setup, type SnapshotFrom } from 'xstate';
import type { FieldErrors } from '../domain/customers';
import { DUNNING_DAYS_MAX, LEDGER_MESSAGES as M, policyProblem, type DunningPolicy } from '../domain/ledger';
import { failureText, hasErrors } from './customer-forms';
import { FALLBACK_LOAD_ERROR, type LoadOutcome } from './resource';
import { submittingStates } from './submit';

export type StoredPolicy = DunningPolicy & { updatedAt: string };

export type PolicyDaysField = 'reminder1' | 'reminder2' | 'reminder3' | 'finalNotice' | 'block';
export type PolicyFlag = 'enabled' | 'proposeLineEnds';
/** `order`: the days as a whole are out of order. */
export type PolicyField = PolicyDaysField | 'order';

/** The policy as typed: days as text, blank for none. */
export interface PolicyFormValues extends Record<PolicyDaysField, string> {
  enabled: boolean;
  proposeLineEnds: boolean;
}

export interface DunningPolicyContext {
  form: PolicyFormValues;
  /** When the policy was last saved; '' before it loads. */
  updatedAt: string;
  errors: FieldErrors<PolicyField>;
  failure: string | null;
  loadError: string | null;
}

export type DunningPolicyEvent =
  | { type: 'user.field'; field: PolicyDaysField; value: string }
  | { type: 'user.toggle'; field: PolicyFlag; value: boolean }
  | { type: 'user.submit' }
  | { type: 'user.retry' };

export const POLICY_TEXTS = {
  daysInvalid: `A whole number of days from 1 to ${DUNNING_DAYS_MAX}, or blank`,
  saveFailed: failureText('save the dunning policy', null),
} as const;

export const REMINDER_FIELDS = ['reminder1', 'reminder2', 'reminder3'] as const satisfies readonly PolicyDaysField[];
const DAYS_FIELDS: readonly PolicyDaysField[] = [...REMINDER_FIELDS, 'finalNotice', 'block'];

const EMPTY_FORM: PolicyFormValues = { enabled: false, reminder1: '', reminder2: '', reminder3: '', finalNotice: '', block: '', proposeLineEnds: false };

export function policyForm(policy: DunningPolicy): PolicyFormValues {
  const day = (days: number | null | undefined) => (days === null || days === undefined ? '' : String(days));
  return {
    enabled: policy.enabled,
    reminder1: day(policy.reminderDays[0]),
    reminder2: day(policy.reminderDays[1]),
    reminder3: day(policy.reminderDays[2]),
    finalNotice: day(policy.finalNoticeDays),
    block: day(policy.blockDays),
    proposeLineEnds: policy.proposeLineEnds,
  };
}

/** Blank is none; anything else a whole number of days. */
const daysOf = (text: string): number | null => (text.trim() === '' ? null : Number(text.trim()));
const daysProblem = (text: string) => {
  const trimmed = text.trim();
  if (trimmed === '') return null;
  const days = Number(trimmed);
  return /^\d+$/.test(trimmed) && days >= 1 && days <= DUNNING_DAYS_MAX ? null : POLICY_TEXTS.daysInvalid;
};

/** The policy the form says: the reminders given, in the order typed (a blank between two is skipped). */
export function policyOf(form: PolicyFormValues): DunningPolicy {
  return {
    enabled: form.enabled,
    reminderDays: REMINDER_FIELDS.map((field) => daysOf(form[field])).filter((days): days is number => days !== null),
    finalNoticeDays: daysOf(form.finalNotice),
    blockDays: daysOf(form.block),
    proposeLineEnds: form.proposeLineEnds,
  };
}

export function validatePolicyForm(form: PolicyFormValues): FieldErrors<PolicyField> {
  const errors: FieldErrors<PolicyField> = {};
  for (const field of DAYS_FIELDS) {
    const problem = daysProblem(form[field]);
    if (problem) errors[field] = problem;
  }
  if (hasErrors(errors)) return errors;
  const order = policyProblem(policyOf(form));
  return order ? { order } : {};
}

const dunningPolicySetup = setup({
  types: {
    context: {} as DunningPolicyContext,
    events: {} as DunningPolicyEvent,
  },
  actors: {
    loadPolicy: fromPromise<LoadOutcome<StoredPolicy>>(async () => {
      throw new Error('loadPolicy is provided by the app');
    }),
    savePolicy: fromPromise<LoadOutcome<StoredPolicy>, DunningPolicy>(async () => {
      throw new Error('savePolicy is provided by the app');
    }),
  },
  actions: {
    storePolicy: assign((_, outcome: LoadOutcome<StoredPolicy>) => (outcome.ok ? { form: policyForm(outcome.data), updatedAt: outcome.data.updatedAt, errors: {}, loadError: null } : {})),
    storeLoadError: assign((_, message: string) => ({ loadError: message })),
    storeField: assign(({ context }, { field, value }: { field: PolicyDaysField; value: string }) => ({
      form: { ...context.form, [field]: value },
      errors: { ...context.errors, [field]: undefined, order: undefined },
      failure: null,
    })),
    storeToggle: assign(({ context }, { field, value }: { field: PolicyFlag; value: boolean }) => ({ form: { ...context.form, [field]: value }, failure: null })),
    storeProblems: assign(({ context }) => ({ errors: validatePolicyForm(context.form) })),
    storeFailure: assign((_, message: string) => ({ failure: message })),
    clearFailure: assign({ failure: null }),
    notifySuccess: (_, _message: string) => {},
    notifyFailure: (_, _message: string) => {},
  },
  guards: {
    isLoaded: (_, outcome: LoadOutcome<StoredPolicy>) => outcome.ok,
    isValid: ({ context }) => !hasErrors(validatePolicyForm(context.form)),
    isDone: (_, outcome: LoadOutcome<StoredPolicy>) => outcome.ok,
  },
});

const submitting = submittingStates(dunningPolicySetup);

export const dunningPolicyFormMachine = dunningPolicySetup.createMachine({
  id: 'dunningPolicyForm',
  context: { form: EMPTY_FORM, updatedAt: '', errors: {}, failure: null, loadError: null },
  initial: 'loading',
  states: {
    loading: {
      tags: ['loading'],
      invoke: {
        id: 'loadPolicy',
        src: 'loadPolicy',
        onDone: [
          { guard: { type: 'isLoaded', params: ({ event }) => event.output }, target: 'editing', actions: { type: 'storePolicy', params: ({ event }) => event.output } },
          { target: 'failed', actions: { type: 'storeLoadError', params: ({ event }) => (event.output.ok ? FALLBACK_LOAD_ERROR : event.output.message) } },
        ],
        onError: { target: 'failed', actions: { type: 'storeLoadError', params: FALLBACK_LOAD_ERROR } },
      },
    },
    failed: {
      on: { 'user.retry': 'loading' },
    },
    editing: {
      on: {
        'user.field': { actions: { type: 'storeField', params: ({ event }) => event } },
        'user.toggle': { actions: { type: 'storeToggle', params: ({ event }) => event } },
        // A form with a problem stays, each problem under its field; nothing is sent.
        'user.submit': [{ guard: 'isValid', target: 'saving' }, { actions: 'storeProblems' }],
      },
    },
    saving: submitting({
      src: 'savePolicy',
      input: ({ context }) => policyOf(context.form),
      success: {
        target: 'editing',
        actions: [
          { type: 'storePolicy', params: ({ event }) => event.output },
          { type: 'notifySuccess', params: M.policySaved },
        ],
      },
      back: 'editing',
      failure: (why) => why?.trim() || POLICY_TEXTS.saveFailed,
    }),
  },
});

export type DunningPolicyFormMachine = typeof dunningPolicyFormMachine;

export interface DunningPolicyView {
  loading: boolean;
  loadError: string | null;
  /** The form is shown (loaded). */
  ready: boolean;
  saving: boolean;
  form: PolicyFormValues;
  updatedAt: string;
  errors: FieldErrors<PolicyField>;
  failure: string | null;
}

export function dunningPolicyView(snapshot: SnapshotFrom<DunningPolicyFormMachine>): DunningPolicyView {
  const { context } = snapshot;
  return {
    loading: snapshot.hasTag('loading'),
    loadError: snapshot.matches('failed') ? context.loadError : null,
    ready: snapshot.matches('editing') || snapshot.matches('saving'),
    saving: snapshot.hasTag('busy'),
    form: context.form,
    updatedAt: context.updatedAt,
    errors: context.errors,
    failure: context.failure,
  };
}
