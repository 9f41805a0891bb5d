/**
 * Ageing → Dunning policy → Run dunning now (billing:manage): the dunning the billing run takes
 * every quarter of an hour, taken at once, with the saved policy.
 *
 *   idle       "Run dunning now"
 *   running    "Running...", the button disabled                                    (tag: busy)
 *
 * Done, the server's words ("Dunning ran: 1 reminder, 0 final notices, 2 blocked, 0 unblocked")
 * are a toast and the page reloads the ageing (a customer may now be blocked); a refusal or a
 * failure is an error toast. Either way the button is offered again.
 */
import { fromPromise, setup, type SnapshotFrom } from 'xstate';
import type { DunningReport } from '../domain/ledger';
import { failureText } from './customer-forms';
import type { LoadOutcome } from './resource';

/** What a run answers: the steps it took and the server's words for them. */
export interface DunningRan {
  report: DunningReport;
  message: string;
}

export type DunningRunEvent = { type: 'user.run' };

export const RUN_FAILED = failureText('run the dunning', null);

/** The toast's words for a run's answer: the server's, whether it ran or refused. */
const wordsOf = (outcome: LoadOutcome<DunningRan>) => (outcome.ok ? outcome.data.message : outcome.message.trim() || RUN_FAILED);

export const dunningRunMachine = setup({
  types: {
    events: {} as DunningRunEvent,
  },
  actors: {
    runDunning: fromPromise<LoadOutcome<DunningRan>>(async () => {
      throw new Error('runDunning is provided by the app');
    }),
  },
  actions: {
    notifySuccess: (_, _message: string) => {},
    notifyFailure: (_, _message: string) => {},
    /** The page reads the ageing again. */
    reloadAgeing: () => {},
  },
  guards: {
    isDone: (_, outcome: LoadOutcome<DunningRan>) => outcome.ok,
  },
}).createMachine({
  id: 'dunningRun',
  initial: 'idle',
  states: {
    idle: {
      on: { 'user.run': 'running' },
    },
    running: {
      tags: ['busy'],
      invoke: {
        id: 'runDunning',
        src: 'runDunning',
        onDone: [
          {
            guard: { type: 'isDone', params: ({ event }) => event.output },
            target: 'idle',
            actions: [{ type: 'notifySuccess', params: ({ event }) => wordsOf(event.output) }, 'reloadAgeing'],
          },
          { target: 'idle', actions: { type: 'notifyFailure', params: ({ event }) => wordsOf(event.output) } },
        ],
        onError: { target: 'idle', actions: { type: 'notifyFailure', params: RUN_FAILED } },
      },
    },
  },
});

export type DunningRunMachine = typeof dunningRunMachine;

export interface DunningRunView {
  running: boolean;
}

export function dunningRunView(snapshot: SnapshotFrom<DunningRunMachine>): DunningRunView {
  return { running: snapshot.hasTag('busy') };
}
