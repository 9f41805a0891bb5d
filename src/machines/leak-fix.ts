/**
 * A fix on the reconciliation board: one click on a leak's fix button, one at a time,
 * on the one submit shape (submit.ts). Cancelling a line ends service, so it asks first.
 *
 *   idle                nothing running; every open leak offers its fixes
 *   fixing              the fix is sent; every fix button waits                        (tag: busy)
 *   dialog.confirming   "Cancel line {number} at the end of the cycle?"                (tag: open)
 *   dialog.fixing       Cancel the line says it is working; the dialog stays    (tags: open, busy)
 *   done                the fixed leak shows who handled it, when and how; the others offer
 *                       their fixes as in idle
 *
 * A refusal (the leak is gone, the fix does not apply, a viewer) goes back to where the fix was
 * asked from with the server's words: beside the leak, or in the dialog. A fix done tells the
 * page (`leakFixed`, with the leak as it now stands), which shows it and reloads the board.
 */
import { assign, fromPromise, setup } from 'xstate';
import { BILLING_MESSAGES as M, type FixAction, type FixBody, type LeakWire } from '../domain/billing';
import type { LoadOutcome } from './resource';
import { submittingStates } from './submit';

export interface LeakFixContext {
  cycle: string | null;
  leak: LeakWire | null;
  action: FixAction | null;
  /** Why the last fix failed (beside its leak, or in the dialog, and toasted). */
  failure: string | null;
  /** The leak as the last fix left it. */
  fixed: LeakWire | null;
}

export type LeakFixEvent =
  | { type: 'user.fix'; cycle: string; leak: LeakWire; action: FixAction }
  | { type: 'user.confirm' }
  | { type: 'user.cancel' };

/** The fixes that change what the customer receives, so they ask first. */
export const CONFIRMED_FIXES: readonly FixAction[] = ['cancel_line'];

export const LEAK_FIX_TEXTS = {
  confirmTitle: 'Cancel the line',
  cancelQuestion: (line: string) =>
    `Cancel line ${line} at the end of the cycle? The provider ends its service then, and it stops costing from the next cycle. This cannot be undone here.`,
  failed: 'The fix could not be made. Try again.',
} as const;

const fixBody = (context: LeakFixContext): FixBody => ({
  cycle: context.cycle!,
  kind: context.leak!.kind,
  key: context.leak!.key,
  action: context.action!,
});

type FixEvent = Extract<LeakFixEvent, { type: 'user.fix' }>;
const fixOf = ({ event }: { event: FixEvent }) => event;
/** An open leak offering this fix; a stale click on a handled one does nothing. */
const isOffered = ({ leak, action }: FixEvent) => leak.resolution === null && leak.fixes.includes(action);

const leakFixSetup = setup({
  types: {
    context: {} as LeakFixContext,
    events: {} as LeakFixEvent,
  },
  actors: {
    fixLeak: fromPromise<LoadOutcome<LeakWire>, FixBody>(async () => {
      throw new Error('fixLeak is provided by the app');
    }),
  },
  actions: {
    takeFix: assign((_, { cycle, leak, action }: FixEvent) => ({ cycle, leak, action, failure: null })),
    storeFixed: assign((_, leak: LeakWire) => ({ fixed: leak })),
    storeFailure: assign((_, message: string) => ({ failure: message })),
    clearFailure: assign({ failure: null }),
    notifySuccess: (_, _message: string) => {},
    notifyFailure: (_, _message: string) => {},
    /** The page shows the leak as handled and reloads the board. */
    leakFixed: (_, _leak: LeakWire) => {},
  },
  guards: {
    isOffered: (_, fix: FixEvent) => isOffered(fix),
    asksFirst: (_, fix: FixEvent) => isOffered(fix) && CONFIRMED_FIXES.includes(fix.action),
    isDone: (_, outcome: LoadOutcome<LeakWire>) => outcome.ok,
  },
});

const submitting = submittingStates(leakFixSetup);
const failureWords = (why: string | null) => why?.trim() || LEAK_FIX_TEXTS.failed;
/** The leak as the server now has it (isDone let only a success through). */
const fixedLeak = ({ event }: { event: { output: LoadOutcome<LeakWire> } }) => (event.output as { data: LeakWire }).data;
const fixDone = [
  { type: 'storeFixed', params: fixedLeak },
  { type: 'notifySuccess', params: M.leakFixed },
  { type: 'leakFixed', params: fixedLeak },
] as const;

/** What idle and done both offer: a fix, asked about first when it ends service. */
const fixRequests = {
  'user.fix': [
    { guard: { type: 'asksFirst', params: fixOf }, target: '#leakFix.dialog', actions: { type: 'takeFix', params: fixOf } },
    { guard: { type: 'isOffered', params: fixOf }, target: '#leakFix.fixing', actions: { type: 'takeFix', params: fixOf } },
  ],
} as const;

export const leakFixMachine = leakFixSetup.createMachine({
  id: 'leakFix',
  context: { cycle: null, leak: null, action: null, failure: null, fixed: null },
  initial: 'idle',
  states: {
    idle: { on: fixRequests },
    fixing: submitting({
      src: 'fixLeak',
      input: ({ context }) => fixBody(context),
      success: { target: 'done', actions: fixDone },
      // Nothing to go back to: the leak says why beside it, and offers its fixes again.
      back: 'idle',
      failure: failureWords,
    }),
    dialog: {
      tags: ['open'],
      initial: 'confirming',
      states: {
        confirming: {
          on: {
            'user.confirm': 'fixing',
            'user.cancel': '#leakFix.idle',
          },
        },
        fixing: submitting({
          src: 'fixLeak',
          input: ({ context }) => fixBody(context),
          success: { target: '#leakFix.done', actions: fixDone },
          back: 'confirming',
          failure: failureWords,
        }),
      },
    },
    done: { on: fixRequests },
  },
});

export type LeakFixMachine = typeof leakFixMachine;
