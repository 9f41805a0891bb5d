/**
 * Acknowledging alerts on the Alerts page: a row's Acknowledge, or "Acknowledge (n)" for
 * the rows ticked in the table. One per page.
 *
 *   idle        the table; the ticked rows are `selection`
 *   confirming  "Acknowledge n alerts?" for a bulk of more than one              (tag: open)
 *   submitting  the buttons wait; the dialog stays up when it asked first        (tag: busy)
 *   done        "n alerts acknowledged, m unchanged" above the table (and a toast)
 *   failed      the server's words above the table (and a toast); the ticks stay for another try
 *
 * From done and failed every idle action works again; `user.dismiss` only hides the report. An
 * acknowledgement tells the page (`alertsAcknowledged`), which reloads the list and the bell.
 */
import { assign, fromPromise, setup } from 'xstate';
import { ALERT_MESSAGES, type AcknowledgeResultWire } from '../domain/alerts';
import type { LoadOutcome } from './resource';
import { submittingStates } from './submit';

export interface AcknowledgeInput {
  ids: string[];
}

export type AcknowledgeOutcome = LoadOutcome<AcknowledgeResultWire>;

export interface AlertAcknowledgeContext {
  /** The ids ticked in the table. */
  selection: string[];
  /** The ids of the acknowledgement asked for (or last asked for). */
  ids: string[];
  /** The server's report of the last one that went through. */
  result: AcknowledgeResultWire | null;
  /** Why the last one failed. */
  failure: string | null;
}

export type AlertAcknowledgeEvent =
  | { type: 'user.select'; ids: string[] }
  | { type: 'user.acknowledge'; id: string }
  | { type: 'user.acknowledgeSelected' }
  | { type: 'user.confirm' }
  | { type: 'user.cancel' }
  | { type: 'user.dismiss' };

export const ACKNOWLEDGE_FAILED = 'The alerts could not be acknowledged. Try again.';

/** The report's sentence: what the call changed, and what it found already done. */
export function acknowledgeReport(result: AcknowledgeResultWire): string {
  const changed = result.acknowledged.length;
  const left = result.unchanged.length + result.notFound.length;
  if (changed === 0) return ALERT_MESSAGES.nothingToAcknowledge;
  return left === 0 ? ALERT_MESSAGES.acknowledged(changed) : `${ALERT_MESSAGES.acknowledged(changed)}, ${left} unchanged`;
}

const alertAcknowledgeSetup = setup({
  types: {
    context: {} as AlertAcknowledgeContext,
    events: {} as AlertAcknowledgeEvent,
  },
  actors: {
    acknowledge: fromPromise<AcknowledgeOutcome, AcknowledgeInput>(async () => {
      throw new Error('acknowledge is provided by the app');
    }),
  },
  actions: {
    storeSelection: assign((_, ids: string[]) => ({ selection: [...new Set(ids)] })),
    takeSelection: assign(({ context }) => ({ ids: context.selection })),
    takeOne: assign((_, id: string) => ({ ids: [id] })),
    storeResult: assign(({ context }, outcome: AcknowledgeOutcome) =>
      // The acknowledged rows leave the selection; ticks on rows it left unchanged stay.
      outcome.ok ? { result: outcome.data, selection: context.selection.filter((id) => !outcome.data.acknowledged.includes(id)) } : {},
    ),
    clearReport: assign({ result: null, failure: null }),
    storeFailure: assign((_, message: string) => ({ failure: message })),
    clearFailure: assign({ failure: null, result: null }),
    notifySuccess: (_, _message: string) => {},
    notifyFailure: (_, _message: string) => {},
    /** The list and the bell reload. */
    alertsAcknowledged: () => {},
  },
  guards: {
    hasSelection: ({ context }) => context.selection.length > 0,
    isBulk: ({ context }) => context.selection.length > 1,
    isDone: (_, outcome: AcknowledgeOutcome) => outcome.ok,
  },
});

const submitting = submittingStates(alertAcknowledgeSetup);

// What the table offers wherever no acknowledgement is under way.
const tableActions = {
  'user.select': {
    target: '#alertAcknowledge.idle',
    actions: ['clearReport', { type: 'storeSelection', params: ({ event }: { event: { ids: string[] } }) => event.ids }],
  },
  'user.acknowledge': {
    target: '#alertAcknowledge.submitting',
    actions: ['clearReport', { type: 'takeOne', params: ({ event }: { event: { id: string } }) => event.id }],
  },
  'user.acknowledgeSelected': [
    { guard: 'isBulk', target: '#alertAcknowledge.confirming', actions: ['clearReport', 'takeSelection'] },
    { guard: 'hasSelection', target: '#alertAcknowledge.submitting', actions: ['clearReport', 'takeSelection'] },
  ],
} as const;

export const alertAcknowledgeMachine = alertAcknowledgeSetup.createMachine({
  id: 'alertAcknowledge',
  context: { selection: [], ids: [], result: null, failure: null },
  initial: 'idle',
  states: {
    idle: { on: tableActions },
    confirming: {
      tags: ['open'],
      on: { 'user.confirm': 'submitting', 'user.cancel': 'idle' },
    },
    submitting: submitting({
      src: 'acknowledge',
      input: ({ context }) => ({ ids: context.ids }),
      success: {
        target: 'done',
        actions: [
          { type: 'storeResult', params: ({ event }) => event.output },
          { type: 'notifySuccess', params: ({ event }) => (event.output.ok ? acknowledgeReport(event.output.data) : '') },
          'alertsAcknowledged',
        ],
      },
      back: 'failed',
      failure: (why) => why?.trim() || ACKNOWLEDGE_FAILED,
    }),
    done: { on: { ...tableActions, 'user.dismiss': { target: 'idle', actions: 'clearReport' } } },
    failed: { on: { ...tableActions, 'user.dismiss': { target: 'idle', actions: 'clearReport' } } },
  },
});

export type AlertAcknowledgeMachine = typeof alertAcknowledgeMachine;
