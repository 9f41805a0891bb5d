/**
 * The two actions a customer may take on their terminal page, one dialog at a time:
 * rename and reboot have the same shape (a dialog, then one request), so they are one machine
 * built on the shared submitting state (submit.ts) rather than two copies of it.
 *
 *   closed             no dialog; Rename and Reboot offered
 *   renaming.editing   "Rename terminal": the name (1–100 characters); Save, Cancel       (tag: open)
 *   renaming.saving    Save says it is working; the dialog cannot be closed       (tags: open, busy)
 *   rebooting.confirming "Reboot this terminal?"; Reboot, Cancel; after a refusal the
 *                      server's words, e.g. how many minutes to wait after a 429        (tag: open)
 *   rebooting.sending  Reboot says it is working; the dialog cannot be closed     (tags: open, busy)
 *
 * A refusal keeps the dialog open with the server's words in it (and a toast); a success closes
 * it with a toast and tells the page (`terminalChanged`), which reloads the terminal.
 */
import { assign, fromPromise, setup } from 'xstate';
import { MY_AREA_MESSAGES as M, terminalNameProblem } from '../domain/my-area';
import type { LoadOutcome } from './resource';
import { submittingStates } from './submit';

export interface TerminalActionsContext {
  terminalId: string;
  name: string;
  /** The name's problem, shown once Save was pressed with it. */
  nameError: string | null;
  /** Why the last request of this dialog failed (shown in the dialog as well as the toast). */
  failure: string | null;
}

export type TerminalActionsEvent =
  | { type: 'user.rename'; name: string }
  | { type: 'user.name'; value: string }
  | { type: 'user.reboot' }
  | { type: 'user.confirm' }
  | { type: 'user.close' };

export interface RenameTerminalInput {
  terminalId: string;
  name: string;
}

const terminalActionsSetup = setup({
  types: {
    context: {} as TerminalActionsContext,
    events: {} as TerminalActionsEvent,
    input: {} as { terminalId: string },
  },
  actors: {
    renameTerminal: fromPromise<LoadOutcome<{ nickname: string }>, RenameTerminalInput>(async () => {
      throw new Error('renameTerminal is provided by the app');
    }),
    rebootTerminal: fromPromise<LoadOutcome<unknown>, { terminalId: string }>(async () => {
      throw new Error('rebootTerminal is provided by the app');
    }),
  },
  actions: {
    startRename: assign((_, name: string) => ({ name, nameError: null, failure: null })),
    startReboot: assign({ failure: null }),
    storeName: assign((_, value: string) => ({ name: value, nameError: null, failure: null })),
    storeNameError: assign(({ context }) => ({ nameError: terminalNameProblem(context.name) })),
    storeFailure: assign((_, message: string) => ({ failure: message })),
    clearFailure: assign({ failure: null }),
    notifySuccess: (_, _message: string) => {},
    notifyFailure: (_, _message: string) => {},
    /** The page reloads the terminal. */
    terminalChanged: () => {},
  },
  guards: {
    isNameValid: ({ context }) => terminalNameProblem(context.name) === null,
    isDone: (_, outcome: LoadOutcome<unknown>) => outcome.ok,
  },
});

const submitting = submittingStates(terminalActionsSetup);

export const terminalActionsMachine = terminalActionsSetup.createMachine({
  id: 'terminalActions',
  context: ({ input }) => ({ terminalId: input.terminalId, name: '', nameError: null, failure: null }),
  initial: 'closed',
  states: {
    closed: {
      on: {
        'user.rename': { target: 'renaming', actions: { type: 'startRename', params: ({ event }) => event.name } },
        'user.reboot': { target: 'rebooting', actions: 'startReboot' },
      },
    },
    renaming: {
      tags: ['open'],
      initial: 'editing',
      states: {
        editing: {
          on: {
            'user.name': { actions: { type: 'storeName', params: ({ event }) => event.value } },
            'user.confirm': [{ guard: 'isNameValid', target: 'saving' }, { actions: 'storeNameError' }],
            'user.close': '#terminalActions.closed',
          },
        },
        saving: submitting({
          src: 'renameTerminal',
          input: ({ context }) => ({ terminalId: context.terminalId, name: context.name.trim() }),
          success: {
            target: '#terminalActions.closed',
            actions: [{ type: 'notifySuccess', params: ({ context }) => M.renamed(context.name.trim()) }, 'terminalChanged'],
          },
          back: 'editing',
          failure: (why) => why?.trim() || M.renameFailed,
        }),
      },
    },
    rebooting: {
      tags: ['open'],
      initial: 'confirming',
      states: {
        confirming: {
          on: {
            'user.confirm': 'sending',
            'user.close': '#terminalActions.closed',
          },
        },
        sending: submitting({
          src: 'rebootTerminal',
          input: ({ context }) => ({ terminalId: context.terminalId }),
          success: { target: '#terminalActions.closed', actions: [{ type: 'notifySuccess', params: M.rebooted }, 'terminalChanged'] },
          // Back to the confirmation, which now says why (a 429 says how many minutes to wait).
          back: 'confirming',
          failure: (why) => why?.trim() || M.rebootFailed,
        }),
      },
    },
  },
});
