/**
 * "Schedule a change": one change to a service line or a customer, set for a date and time or for
 * the line's next billing cycle. One per page: the Schedule page opens it without a target (the
 * admin types a service line number or finds a customer), Terminal Details → Settings and the
 * customers' row menu open it with theirs, which cannot be changed.
 *
 *   closed                     no dialog
 *   open.editing.idle          the form: the target (unless given), the operation (those of the
 *                              target's kind), its parameters, and when; a field's problem sits
 *                              under it once Schedule was pressed and clears when it is edited; a
 *                              refusal that is no field's sits above the form            (tag: open)
 *   open.editing.debouncing    a customer search is being typed; it runs once the typing pauses
 *   open.editing.searching     the customers matching it are asked for        (tags: open, searching)
 *   open.editing.loadingPlans  Change plan was chosen: the plans are asked for (tags: open, loadingPlans)
 *   open.submitting            "Scheduling..."; the dialog cannot be closed        (tags: open, busy)
 *
 * Nothing is sent while the form has a problem (`scheduleFormProblems`: the domain's checks of the
 * time and the parameters, against the moment Schedule was pressed). A refusal goes back to the
 * form with the server's words under the fields it names (`at`, `parameters.count`, `target`…) or
 * above the form; a scheduled change closes the dialog with a toast and tells the page
 * (`changeScheduled`), which reloads what it shows.
 */
import { assign, fromPromise, setup, type SnapshotFrom } from 'xstate';
import {
  AUTOMATION_MESSAGES as M,
  SCHEDULE_CUSTOMER_OPERATIONS,
  SCHEDULE_LINE_OPERATIONS,
  scheduleParametersProblem,
  scheduleTimeProblem,
  targetTypeOf,
  type ScheduleOperation,
  type ScheduleParameters,
  type SchedulePayload,
  type ScheduleTargetType,
  type ScheduledChangeWire,
} from '../domain/automation';
import type { FieldErrors } from '../domain/customers';
import type { SubscriptionPlanWire } from '../domain/subscriptions';
import { SERVICE_LINE_PATTERN } from '../domain/terminals';
import { failureText, hasErrors } from './customer-forms';
import { SEARCH_DEBOUNCE_MS } from './list';
import { fieldOf } from './price-form';
import type { LoadOutcome } from './resource';
import { submittingStates } from './submit';
import type { SaveOutcome, SaveRefusal } from './user-form';

export type ScheduleTiming = 'at' | 'nextCycle';

/** What an entry point schedules for: a line (with the blocks its plan sells, when known) or a customer. */
export interface ScheduleTarget {
  type: ScheduleTargetType;
  /** The service line number or the customer's uuid. */
  id: string;
  /** The line's nickname or the customer's name. */
  label: string | null;
  /** A line's recurring block products, offered as a choice (otherwise the product is typed). */
  blockProducts?: readonly string[];
}

/** A customer the search found. */
export interface CustomerChoice {
  uuid: string;
  name: string;
  email: string;
}

export type ScheduleField = 'target' | 'operation' | 'productReferenceId' | 'productId' | 'count' | 'reason' | 'days' | 'at';
const FIELDS: readonly ScheduleField[] = ['target', 'operation', 'productReferenceId', 'productId', 'count', 'reason', 'days', 'at'];
/** The operation's parameters as the form holds them: typed text, read as numbers when sent. */
export type ScheduleParameterField = 'productReferenceId' | 'productId' | 'count' | 'reason' | 'days';

export interface ScheduleForm {
  targetType: ScheduleTargetType;
  /** The service line number as typed, or the chosen customer's uuid; '' for none. */
  target: string;
  targetLabel: string | null;
  operation: ScheduleOperation | '';
  productReferenceId: string;
  productId: string;
  count: string;
  reason: string;
  days: string;
  timing: ScheduleTiming;
  /** ISO 8601; '' until a time is picked. */
  at: string;
}

export interface ScheduleChangeContext {
  /** The entry point gave the target: the form does not offer another. */
  preset: boolean;
  blockProducts: readonly string[];
  form: ScheduleForm;
  errors: FieldErrors<ScheduleField>;
  /** Why the last request failed, when it was not a field's problem. */
  failure: string | null;
  customerQuery: string;
  customers: CustomerChoice[];
  searchError: string | null;
  /** The plans Change plan offers; null until they are loaded. */
  plans: SubscriptionPlanWire[] | null;
  plansError: string | null;
}

export type ScheduleChangeEvent =
  | { type: 'user.open'; target: ScheduleTarget | null }
  | { type: 'user.targetType'; targetType: ScheduleTargetType }
  | { type: 'user.line'; value: string }
  | { type: 'user.customerSearch'; value: string }
  | { type: 'user.customer'; customer: CustomerChoice }
  | { type: 'user.operation'; operation: ScheduleOperation }
  | { type: 'user.parameter'; field: ScheduleParameterField; value: string }
  | { type: 'user.timing'; timing: ScheduleTiming }
  | { type: 'user.at'; value: string }
  | { type: 'user.retryPlans' }
  /** `now`: the moment Schedule was pressed, which the time is checked against. */
  | { type: 'user.submit'; now: number }
  | { type: 'user.close' };

export const SCHEDULE_FORM_TEXTS = {
  lineRequired: 'Enter the service line number',
  lineInvalid: 'Service line number must be 2 to 64 letters, digits or dashes',
  customerRequired: 'Choose the customer',
  operationRequired: 'Choose what to do',
  plansFailed: 'The plans could not be loaded',
  searchFailed: 'The customers could not be searched',
  failed: failureText('schedule the change', null),
} as const;

/** The operations a target of this kind takes, in the order the form offers them. */
export const operationsOf = (type: ScheduleTargetType): readonly ScheduleOperation[] => (type === 'line' ? SCHEDULE_LINE_OPERATIONS : SCHEDULE_CUSTOMER_OPERATIONS);

/** The parameters each operation takes (the form shows these fields only). */
const PARAMETERS: Readonly<Record<ScheduleOperation, readonly ScheduleParameterField[]>> = {
  change_plan: ['productReferenceId'],
  opt_in: [],
  opt_out: [],
  recurring_blocks: ['productId', 'count'],
  deactivate: ['reason'],
  block: ['reason'],
  unblock: [],
  extend: ['days'],
};
const takes = (operation: ScheduleOperation | '', field: ScheduleParameterField) => operation !== '' && PARAMETERS[operation].includes(field);

export const DEFAULT_BLOCK_COUNT = '1';
export const DEFAULT_EXTEND_DAYS = '30';

function emptyForm(type: ScheduleTargetType, target: ScheduleTarget | null, at = ''): ScheduleForm {
  return {
    targetType: type,
    target: target?.id ?? '',
    targetLabel: target?.label ?? null,
    operation: '',
    productReferenceId: '',
    productId: '',
    count: '',
    reason: '',
    days: '',
    timing: 'at',
    at,
  };
}

/** A typed whole number as sent: nothing when empty, NaN when it is no number (the checks say so). */
const number = (key: 'count' | 'days', text: string): ScheduleParameters => (text.trim() === '' ? {} : { [key]: Number(text.trim()) });

/** The parameters of the chosen operation, as sent. */
export function parametersOf(form: ScheduleForm): ScheduleParameters {
  switch (form.operation) {
    case 'change_plan':
      return { productReferenceId: form.productReferenceId.trim() };
    case 'recurring_blocks':
      return { productId: form.productId.trim(), ...number('count', form.count) };
    case 'deactivate':
    case 'block':
      return { reason: form.reason.trim() };
    case 'extend':
      return number('days', form.days);
    default:
      return {};
  }
}

/** What is wrong with the form at `now`, field by field; empty when it may be sent. */
export function scheduleFormProblems(form: ScheduleForm, now: Date): FieldErrors<ScheduleField> {
  const errors: FieldErrors<ScheduleField> = {};
  const target = form.target.trim();
  if (form.targetType === 'customer') {
    if (!target) errors.target = SCHEDULE_FORM_TEXTS.customerRequired;
  } else if (!target) errors.target = SCHEDULE_FORM_TEXTS.lineRequired;
  else if (!SERVICE_LINE_PATTERN.test(target)) errors.target = SCHEDULE_FORM_TEXTS.lineInvalid;
  if (form.operation === '') errors.operation = SCHEDULE_FORM_TEXTS.operationRequired;
  else {
    const problem = scheduleParametersProblem(form.operation, parametersOf(form));
    if (problem) errors[fieldOf(problem.path, FIELDS) ?? 'operation'] = problem.message;
  }
  if (form.timing === 'at') {
    const problem = scheduleTimeProblem(new Date(form.at), now);
    if (problem) errors.at = problem;
  }
  return errors;
}

/** `POST /scheduled-changes` body of a form without problems. */
export function schedulePayload(form: ScheduleForm): SchedulePayload {
  const operation = form.operation as ScheduleOperation;
  return {
    operation,
    target: form.target.trim(),
    parameters: parametersOf(form),
    ...(form.timing === 'nextCycle' ? { atNextCycle: true } : { at: new Date(form.at).toISOString() }),
  };
}

/**
 * Where a refusal's words go: under the fields the server named (`atNextCycle` is the time's
 * field too), an unknown target under the target, anything else above the form.
 */
export function scheduleRefusalPlacement(refusal: SaveRefusal): { errors: FieldErrors<ScheduleField>; failure: string | null } {
  const errors: FieldErrors<ScheduleField> = {};
  for (const problem of refusal.errors ?? []) {
    const field = /atNextCycle/.test(problem.path) ? 'at' : fieldOf(problem.path, FIELDS);
    if (field && !errors[field]) errors[field] = problem.message;
  }
  if (hasErrors(errors)) return { errors, failure: null };
  const words = refusal.message.trim();
  if (words === M.targetNotFound) return { errors: { target: words }, failure: null };
  return { errors: {}, failure: words || SCHEDULE_FORM_TEXTS.failed };
}

const scheduleChangeSetup = setup({
  types: {
    context: {} as ScheduleChangeContext,
    events: {} as ScheduleChangeEvent,
  },
  actors: {
    scheduleChange: fromPromise<SaveOutcome<ScheduledChangeWire>, SchedulePayload>(async () => {
      throw new Error('scheduleChange is provided by the app');
    }),
    findCustomers: fromPromise<LoadOutcome<CustomerChoice[]>, string>(async () => {
      throw new Error('findCustomers is provided by the app');
    }),
    loadPlans: fromPromise<LoadOutcome<SubscriptionPlanWire[]>>(async () => {
      throw new Error('loadPlans is provided by the app');
    }),
  },
  delays: {
    searchDebounce: SEARCH_DEBOUNCE_MS,
  },
  actions: {
    openForm: assign(({ context }, target: ScheduleTarget | null) => ({
      preset: target !== null,
      blockProducts: target?.blockProducts ?? [],
      form: emptyForm(target?.type ?? 'line', target),
      errors: {},
      failure: null,
      customerQuery: '',
      customers: [],
      searchError: null,
      // Loaded plans serve every opening of the page's dialog; a failed load is tried again.
      plans: context.plans,
      plansError: null,
    })),
    storeTargetType: assign(({ context }, type: ScheduleTargetType) => ({
      form: emptyForm(type, null, context.form.at),
      errors: {},
      failure: null,
      customerQuery: '',
      customers: [],
      searchError: null,
    })),
    storeLine: assign(({ context }, value: string) => ({
      form: { ...context.form, target: value, targetLabel: null },
      errors: { ...context.errors, target: undefined },
      failure: null,
    })),
    storeCustomerQuery: assign((_, value: string) => ({ customerQuery: value, searchError: null, ...(value.trim() ? {} : { customers: [] }) })),
    storeCustomers: assign((_, outcome: LoadOutcome<CustomerChoice[]>) =>
      outcome.ok ? { customers: outcome.data, searchError: null } : { customers: [], searchError: outcome.message.trim() || SCHEDULE_FORM_TEXTS.searchFailed },
    ),
    storeSearchFailure: assign({ customers: [], searchError: SCHEDULE_FORM_TEXTS.searchFailed }),
    storeCustomer: assign(({ context }, customer: CustomerChoice) => ({
      form: { ...context.form, target: customer.uuid, targetLabel: customer.name },
      errors: { ...context.errors, target: undefined },
      failure: null,
    })),
    storeOperation: assign(({ context }, operation: ScheduleOperation) => ({
      form: {
        ...context.form,
        operation,
        productReferenceId: '',
        productId: operation === 'recurring_blocks' ? (context.blockProducts[0] ?? '') : '',
        count: operation === 'recurring_blocks' ? DEFAULT_BLOCK_COUNT : '',
        reason: '',
        days: operation === 'extend' ? DEFAULT_EXTEND_DAYS : '',
      },
      // A new operation asks other parameters: their old problems no longer apply.
      errors: { target: context.errors.target, at: context.errors.at },
      failure: null,
    })),
    storeParameter: assign(({ context }, { field, value }: { field: ScheduleParameterField; value: string }) => ({
      form: { ...context.form, [field]: value },
      errors: { ...context.errors, [field]: undefined },
      failure: null,
    })),
    storeTiming: assign(({ context }, timing: ScheduleTiming) => ({ form: { ...context.form, timing }, errors: { ...context.errors, at: undefined }, failure: null })),
    storeAt: assign(({ context }, at: string) => ({ form: { ...context.form, at }, errors: { ...context.errors, at: undefined }, failure: null })),
    storePlans: assign((_, outcome: LoadOutcome<SubscriptionPlanWire[]>) =>
      outcome.ok ? { plans: outcome.data, plansError: null } : { plans: null, plansError: outcome.message.trim() || SCHEDULE_FORM_TEXTS.plansFailed },
    ),
    storePlansFailure: assign({ plans: null, plansError: SCHEDULE_FORM_TEXTS.plansFailed }),
    storeProblems: assign(({ context }, now: number) => ({ errors: scheduleFormProblems(context.form, new Date(now)) })),
    storeRefusal: assign((_, outcome: SaveOutcome<unknown>) => (outcome.ok ? {} : scheduleRefusalPlacement(outcome))),
    storeFailure: assign((_, message: string) => ({ failure: message })),
    clearFailure: assign({ failure: null }),
    notifySuccess: (_, _message: string) => {},
    notifyFailure: (_, _message: string) => {},
    /** What the page shows of scheduled changes reloads. */
    changeScheduled: () => {},
  },
  guards: {
    isOtherTargetType: ({ context }, type: ScheduleTargetType) => !context.preset && type !== context.form.targetType,
    takesLine: ({ context }) => !context.preset && context.form.targetType === 'line',
    takesCustomer: ({ context }) => !context.preset && context.form.targetType === 'customer',
    isCustomerQuery: ({ context }, value: string) => !context.preset && context.form.targetType === 'customer' && value.trim() !== '',
    isOperationOfTarget: ({ context }, operation: ScheduleOperation) => targetTypeOf(operation) === context.form.targetType,
    needsPlans: ({ context }, operation: ScheduleOperation) => operation === 'change_plan' && context.form.targetType === 'line' && context.plans === null,
    mayRetryPlans: ({ context }) => context.form.operation === 'change_plan' && context.plans === null && context.plansError !== null,
    takesParameter: ({ context }, field: ScheduleParameterField) => takes(context.form.operation, field),
    // Only a line has billing cycles to wait for.
    isTimingOfTarget: ({ context }, timing: ScheduleTiming) => timing === 'at' || context.form.targetType === 'line',
    isValid: ({ context }, now: number) => !hasErrors(scheduleFormProblems(context.form, new Date(now))),
    isLoaded: (_, outcome: LoadOutcome<unknown>) => outcome.ok,
    isDone: (_, outcome: SaveOutcome<unknown>) => outcome.ok,
  },
});

const submitting = submittingStates(scheduleChangeSetup);

export const scheduleChangeMachine = scheduleChangeSetup.createMachine({
  id: 'scheduleChange',
  context: {
    preset: false,
    blockProducts: [],
    form: emptyForm('line', null),
    errors: {},
    failure: null,
    customerQuery: '',
    customers: [],
    searchError: null,
    plans: null,
    plansError: null,
  },
  initial: 'closed',
  states: {
    closed: {
      on: { 'user.open': { target: 'open', actions: { type: 'openForm', params: ({ event }) => event.target } } },
    },
    open: {
      tags: ['open'],
      initial: 'editing',
      states: {
        editing: {
          initial: 'idle',
          on: {
            'user.targetType': {
              guard: { type: 'isOtherTargetType', params: ({ event }) => event.targetType },
              target: '.idle',
              actions: { type: 'storeTargetType', params: ({ event }) => event.targetType },
            },
            'user.line': { guard: 'takesLine', actions: { type: 'storeLine', params: ({ event }) => event.value } },
            // Every keystroke starts the pause again; an emptied box searches nothing.
            'user.customerSearch': [
              {
                guard: { type: 'isCustomerQuery', params: ({ event }) => event.value },
                target: '.debouncing',
                actions: { type: 'storeCustomerQuery', params: ({ event }) => event.value },
              },
              { guard: 'takesCustomer', target: '.idle', actions: { type: 'storeCustomerQuery', params: ({ event }) => event.value } },
            ],
            'user.customer': { guard: 'takesCustomer', actions: { type: 'storeCustomer', params: ({ event }) => event.customer } },
            'user.operation': [
              {
                guard: { type: 'needsPlans', params: ({ event }) => event.operation },
                target: '.loadingPlans',
                actions: { type: 'storeOperation', params: ({ event }) => event.operation },
              },
              { guard: { type: 'isOperationOfTarget', params: ({ event }) => event.operation }, actions: { type: 'storeOperation', params: ({ event }) => event.operation } },
            ],
            'user.parameter': {
              guard: { type: 'takesParameter', params: ({ event }) => event.field },
              actions: { type: 'storeParameter', params: ({ event }) => event },
            },
            'user.timing': { guard: { type: 'isTimingOfTarget', params: ({ event }) => event.timing }, actions: { type: 'storeTiming', params: ({ event }) => event.timing } },
            'user.at': { actions: { type: 'storeAt', params: ({ event }) => event.value } },
            'user.retryPlans': { guard: 'mayRetryPlans', target: '.loadingPlans' },
            // A form with a problem stays, each problem under its field; nothing is sent.
            'user.submit': [
              { guard: { type: 'isValid', params: ({ event }) => event.now }, target: 'submitting' },
              { actions: { type: 'storeProblems', params: ({ event }) => event.now } },
            ],
            'user.close': '#scheduleChange.closed',
          },
          states: {
            idle: {},
            debouncing: {
              after: { searchDebounce: 'searching' },
            },
            searching: {
              tags: ['searching'],
              invoke: {
                id: 'findCustomers',
                src: 'findCustomers',
                input: ({ context }) => context.customerQuery.trim(),
                onDone: { target: 'idle', actions: { type: 'storeCustomers', params: ({ event }) => event.output } },
                onError: { target: 'idle', actions: 'storeSearchFailure' },
              },
            },
            loadingPlans: {
              tags: ['loadingPlans'],
              invoke: {
                id: 'loadPlans',
                src: 'loadPlans',
                onDone: { target: 'idle', actions: { type: 'storePlans', params: ({ event }) => event.output } },
                onError: { target: 'idle', actions: 'storePlansFailure' },
              },
            },
          },
        },
        submitting: {
          ...submitting({
            src: 'scheduleChange',
            input: ({ context }) => schedulePayload(context.form),
            success: { target: '#scheduleChange.closed', actions: [{ type: 'notifySuccess', params: M.scheduled }, 'changeScheduled'] },
            back: 'editing',
            failure: (why) => why?.trim() || SCHEDULE_FORM_TEXTS.failed,
            refused: { type: 'storeRefusal', params: ({ event }) => event.output },
          }),
        },
      },
    },
  },
});

export type ScheduleChangeMachine = typeof scheduleChangeMachine;

export interface ScheduleChangeView {
  open: boolean;
  busy: boolean;
  /** The target came with the opening: shown, not chosen. */
  preset: boolean;
  form: ScheduleForm;
  errors: FieldErrors<ScheduleField>;
  failure: string | null;
  operations: readonly ScheduleOperation[];
  /** "At the start of the next billing cycle" is offered (a line's change). */
  nextCycleOffered: boolean;
  blockProducts: readonly string[];
  plans: SubscriptionPlanWire[] | null;
  plansLoading: boolean;
  plansError: string | null;
  customerQuery: string;
  customers: CustomerChoice[];
  searching: boolean;
  searchError: string | null;
}

/** The one reading of the machine the dialog renders. */
export function scheduleChangeView(snapshot: SnapshotFrom<ScheduleChangeMachine>): ScheduleChangeView {
  const { context } = snapshot;
  return {
    open: snapshot.hasTag('open'),
    busy: snapshot.hasTag('busy'),
    preset: context.preset,
    form: context.form,
    errors: context.errors,
    failure: context.failure,
    operations: operationsOf(context.form.targetType),
    nextCycleOffered: context.form.targetType === 'line',
    blockProducts: context.blockProducts,
    plans: context.plans,
    plansLoading: snapshot.hasTag('loadingPlans'),
    plansError: context.plansError,
    customerQuery: context.customerQuery,
    customers: context.customers,
    searching: snapshot.hasTag('searching'),
    searchError: context.searchError,
  };
}
