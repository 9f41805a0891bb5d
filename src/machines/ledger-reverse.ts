/**
 * Payments → Ledger → Reverse… (billing:manage): a payment, credit note or refund posted by
 * mistake is taken back by a new entry of the opposite amount, with the reason; the ledger never
 * changes an entry.
 *
 *   closed       no dialog
 *   confirming   "Reverse {kind} of {amount} from {customer}?" and the reason, required  (tag: open)
 *   reversing    "Reversing..."; the dialog cannot be closed                      (tags: open, busy)
 *
 * A refusal ("already reversed", a payment whose money has since paid a refund) goes back to the
 * question with the server's words and a toast; a reversal is a toast and tells the page
 * (`entryReversed`), which reloads the ledger.
 */
import { assign, fromPromise, setup, type SnapshotFrom } from 'xstate';
import { LEDGER_MESSAGES as M, POSTED_KINDS, type LedgerEntryWire, type PostedWire } from '../domain/ledger';
import { reasonProblem } from './bank-line-decision';
import { failureText } from './customer-forms';
import type { LoadOutcome } from './resource';
import { submittingStates } from './submit';

export interface LedgerReverseContext {
  entry: LedgerEntryWire | null;
  reason: string;
  /** The reason's problem, once Reverse was pressed without one. */
  reasonError: string | null;
  failure: string | null;
}

export type LedgerReverseEvent =
  | { type: 'user.reverse'; entry: LedgerEntryWire }
  | { type: 'user.reason'; value: string }
  | { type: 'user.confirm' }
  | { type: 'user.close' };

export interface ReverseEntryInput {
  id: string;
  reason: string;
}

export const REVERSE_FAILED = failureText('reverse the entry', null);

/** Payments, credit notes and refunds not yet reversed: statements and reversals are corrected otherwise. */
export const isReversible = (entry: Pick<LedgerEntryWire, 'kind' | 'reversedById'>) => (POSTED_KINDS as readonly string[]).includes(entry.kind) && entry.reversedById === null;

const ledgerReverseSetup = setup({
  types: {
    context: {} as LedgerReverseContext,
    events: {} as LedgerReverseEvent,
  },
  actors: {
    reverseEntry: fromPromise<LoadOutcome<PostedWire>, ReverseEntryInput>(async () => {
      throw new Error('reverseEntry is provided by the app');
    }),
  },
  actions: {
    takeEntry: assign((_, entry: LedgerEntryWire) => ({ entry, reason: '', reasonError: null, failure: null })),
    storeReason: assign((_, value: string) => ({ reason: value, reasonError: null, failure: null })),
    storeReasonProblem: assign(({ context }) => ({ reasonError: reasonProblem(context.reason) })),
    storeFailure: assign((_, message: string) => ({ failure: message })),
    clearFailure: assign({ failure: null }),
    notifySuccess: (_, _message: string) => {},
    notifyFailure: (_, _message: string) => {},
    /** The page reloads the ledger. */
    entryReversed: () => {},
  },
  guards: {
    // The table offers Reverse… on those rows only; the server refuses the rest too.
    isReversible: (_, entry: LedgerEntryWire) => isReversible(entry),
    hasReason: ({ context }) => reasonProblem(context.reason) === null,
    isDone: (_, outcome: LoadOutcome<PostedWire>) => outcome.ok,
  },
});

const submitting = submittingStates(ledgerReverseSetup);

export const ledgerReverseMachine = ledgerReverseSetup.createMachine({
  id: 'ledgerReverse',
  context: { entry: null, reason: '', reasonError: null, failure: null },
  initial: 'closed',
  states: {
    closed: {
      on: {
        'user.reverse': {
          guard: { type: 'isReversible', params: ({ event }) => event.entry },
          target: 'confirming',
          actions: { type: 'takeEntry', params: ({ event }) => event.entry },
        },
      },
    },
    confirming: {
      tags: ['open'],
      on: {
        'user.reason': { actions: { type: 'storeReason', params: ({ event }) => event.value } },
        'user.confirm': [{ guard: 'hasReason', target: 'reversing' }, { actions: 'storeReasonProblem' }],
        'user.close': 'closed',
      },
    },
    // Not closable: the server may already be posting the reversal.
    reversing: {
      ...submitting({
        src: 'reverseEntry',
        input: ({ context }) => ({ id: context.entry!.id, reason: context.reason.trim() }),
        success: { target: 'closed', actions: [{ type: 'notifySuccess', params: M.entryReversed }, 'entryReversed'] },
        back: 'confirming',
        failure: (why) => why?.trim() || REVERSE_FAILED,
      }),
      tags: ['open', 'busy'],
    },
  },
});

export type LedgerReverseMachine = typeof ledgerReverseMachine;

export interface LedgerReverseView {
  open: boolean;
  busy: boolean;
  entry: LedgerEntryWire | null;
  reason: string;
  reasonError: string | null;
  failure: string | null;
}

export function ledgerReverseView(snapshot: SnapshotFrom<LedgerReverseMachine>): LedgerReverseView {
  const { context } = snapshot;
  return { open: snapshot.hasTag('open'), busy: snapshot.hasTag('busy'), entry: context.entry, reason: context.reason, reasonError: context.reasonError, failure: context.failure };
}
