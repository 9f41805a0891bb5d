/**
 * Bulk actions (/bulk): one action over the rows of a pasted or uploaded CSV,
 * previewed row by row, run by the server as a background job, followed to its per-row results.
 *
 *   start            (passing) a link naming an operation opens it; otherwise the editor
 *   editing          the action picker, its columns and a sample, the CSV box and Upload CSV; the
 *                    file's problem (read with the server's own reader) under the box as it is
 *                    typed; Preview once the file can be read
 *   previewing       "Previewing..."; the CSV cannot change meanwhile                    (tag: busy)
 *   previewed        each row with what it will do or why it cannot, "N ready, M with problems";
 *                    Run N rows (only when a row can run) and Edit
 *   previewFailed    the server's words with Try again and Edit
 *   starting         "Starting..."                                                       (tag: busy)
 *   startFailed      the server's words (e.g. no row can run) with Edit
 *   opening          "Loading the bulk action..."                                        (tag: busy)
 *   running.waiting  the progress bar, done of total; the next read is pollInterval away
 *   running.polling  the same, while the operation is read again
 *   finished         the counts, the per-row results (paged, by status) and Export CSV
 *   loadFailed       the operation could not be read: the server's words, Try again and New bulk action
 *
 * A row of "Recent bulk actions" opens that operation from anywhere but `starting` (whose answer
 * names the operation the page should follow). The operation shown is published to the address
 * (`publishOperation`) so a reload or a link shows it again; the address is read once, at start.
 * The job ends on the server whether or not the page watches, so polling has no timeout: leaving
 * the page (or New bulk action) stops it.
 */
import { assign, fromPromise, not, setup, stateIn } from 'xstate';
import { BULK_POLL_INTERVAL_MS, parseBulkCsv, type BulkKind, type BulkOperationWire, type BulkPreviewWire } from '../domain/bulk';
import type { BulkBody } from '../api/bulk';
import { FALLBACK_LOAD_ERROR, type LoadOutcome } from './resource';

export type BulkPreviewOutcome = LoadOutcome<BulkPreviewWire>;
/** `POST /bulk`: the operation, and the server's "Bulk action started: N rows". */
export type BulkStartOutcome = LoadOutcome<{ operation: BulkOperationWire; message: string }>;
export type BulkOperationOutcome = LoadOutcome<BulkOperationWire>;

export interface BulkActionContext {
  kind: BulkKind;
  /** The CSV as pasted, typed or read from the file. */
  csv: string;
  /** The file the CSV was read from; null once the text is edited by hand. */
  fileName: string | null;
  preview: BulkPreviewWire | null;
  /** The operation opened or started; its last reading in `operation` (null until read). */
  operationId: string | null;
  operation: BulkOperationWire | null;
  /** The words of the last failure (previewFailed, startFailed, loadFailed). */
  failure: string | null;
}

export type BulkActionEvent =
  | { type: 'user.kind'; kind: BulkKind }
  | { type: 'user.csv'; text: string }
  | { type: 'user.file'; name: string; text: string }
  | { type: 'user.preview' }
  | { type: 'user.edit' }
  | { type: 'user.run' }
  | { type: 'user.retry' }
  | { type: 'user.open'; id: string }
  | { type: 'user.reset' };

export interface BulkActionInput {
  /** The operation the address names (`/bulk?operation=<id>`). */
  operationId?: string | null;
  kind?: BulkKind;
}

/** Why the CSV cannot be previewed, as the box shows it; null when it can, or while nothing is typed. */
export function csvProblem(kind: BulkKind, csv: string): string | null {
  if (csv.trim() === '') return null;
  const read = parseBulkCsv(kind, csv);
  return read.ok ? null : read.message;
}

const operationOf = (outcome: BulkOperationOutcome) => (outcome.ok ? outcome.data : null);
const startedOf = (outcome: BulkStartOutcome) => (outcome.ok ? outcome.data.operation : null);
const failureOf = (outcome: LoadOutcome<unknown>) => (outcome.ok ? null : outcome.message.trim() || FALLBACK_LOAD_ERROR);

export const bulkActionMachine = setup({
  types: {
    context: {} as BulkActionContext,
    events: {} as BulkActionEvent,
    input: {} as BulkActionInput | undefined,
  },
  actors: {
    previewBulk: fromPromise<BulkPreviewOutcome, BulkBody>(async () => {
      throw new Error('previewBulk is provided by the app');
    }),
    startBulk: fromPromise<BulkStartOutcome, BulkBody>(async () => {
      throw new Error('startBulk is provided by the app');
    }),
    /** Input: the operation's id. */
    loadBulkOperation: fromPromise<BulkOperationOutcome, string>(async () => {
      throw new Error('loadBulkOperation is provided by the app');
    }),
  },
  delays: {
    pollInterval: BULK_POLL_INTERVAL_MS,
  },
  actions: {
    storeKind: assign((_, kind: BulkKind) => ({ kind })),
    storeCsv: assign((_, text: string) => ({ csv: text, fileName: null })),
    storeFile: assign((_, file: { name: string; text: string }) => ({ csv: file.text, fileName: file.name })),
    storePreview: assign((_, outcome: BulkPreviewOutcome) => (outcome.ok ? { preview: outcome.data } : {})),
    clearPreview: assign({ preview: null }),
    storeOperation: assign((_, operation: BulkOperationWire | null) => (operation ? { operationId: operation.id, operation } : {})),
    takeOperationId: assign((_, id: string) => ({ operationId: id, operation: null, preview: null })),
    storeFailure: assign((_, message: string | null) => ({ failure: message ?? FALLBACK_LOAD_ERROR })),
    clearFailure: assign({ failure: null }),
    /** A new bulk action: the editor empty again, on the same action. */
    clearAll: assign({ csv: '', fileName: null, preview: null, operationId: null, operation: null, failure: null }),
    /** Puts the operation shown (or none) in the address (the route navigates, replacing). */
    publishOperation: (_, _id: string | null) => {},
    /** The server's "Bulk action started" (the route toasts it and reads the recent list again). */
    notifyStarted: (_, _message: string) => {},
    /** A followed operation ended (the route toasts its counts and reads the recent list again). */
    notifyFinished: (_, _operation: BulkOperationWire) => {},
  },
  guards: {
    canPreview: ({ context }) => parseBulkCsv(context.kind, context.csv).ok,
    hasReadyRows: ({ context }) => (context.preview?.ready ?? 0) > 0,
    // While a start is answered, the page follows what it started, not another operation.
    canOpen: not(stateIn('starting')),
    isAnswered: (_, outcome: LoadOutcome<unknown>) => outcome.ok,
    isFinished: (_, operation: BulkOperationWire | null) => operation?.status === 'done',
    hasOperation: ({ context }) => context.operationId !== null,
  },
}).createMachine({
  id: 'bulkAction',
  context: ({ input }) => ({
    kind: input?.kind ?? 'assign',
    csv: '',
    fileName: null,
    preview: null,
    operationId: input?.operationId ?? null,
    operation: null,
    failure: null,
  }),
  initial: 'start',
  on: {
    'user.open': {
      guard: 'canOpen',
      target: '.opening',
      actions: [
        { type: 'takeOperationId', params: ({ event }) => event.id },
        { type: 'publishOperation', params: ({ event }) => event.id },
      ],
    },
  },
  states: {
    start: {
      always: [{ guard: 'hasOperation', target: 'opening' }, { target: 'editing' }],
    },
    editing: {
      on: {
        'user.kind': { actions: { type: 'storeKind', params: ({ event }) => event.kind } },
        'user.csv': { actions: { type: 'storeCsv', params: ({ event }) => event.text } },
        'user.file': { actions: { type: 'storeFile', params: ({ event }) => ({ name: event.name, text: event.text }) } },
        // A file that cannot be read shows its problem under the box; nothing is sent.
        'user.preview': { guard: 'canPreview', target: 'previewing' },
      },
    },
    previewing: {
      tags: ['busy'],
      entry: 'clearFailure',
      invoke: {
        id: 'previewBulk',
        src: 'previewBulk',
        input: ({ context }) => ({ kind: context.kind, csv: context.csv }),
        onDone: [
          {
            guard: { type: 'isAnswered', params: ({ event }) => event.output },
            target: 'previewed',
            actions: { type: 'storePreview', params: ({ event }) => event.output },
          },
          { target: 'previewFailed', actions: { type: 'storeFailure', params: ({ event }) => failureOf(event.output) } },
        ],
        onError: { target: 'previewFailed', actions: { type: 'storeFailure', params: FALLBACK_LOAD_ERROR } },
      },
    },
    previewed: {
      on: {
        'user.run': { guard: 'hasReadyRows', target: 'starting' },
        'user.edit': { target: 'editing', actions: 'clearPreview' },
      },
    },
    previewFailed: {
      on: {
        'user.retry': 'previewing',
        'user.edit': 'editing',
      },
    },
    starting: {
      tags: ['busy'],
      entry: 'clearFailure',
      invoke: {
        id: 'startBulk',
        src: 'startBulk',
        input: ({ context }) => ({ kind: context.kind, csv: context.csv }),
        onDone: [
          // A run so short it ended before the answer: straight to its results.
          {
            guard: { type: 'isFinished', params: ({ event }) => startedOf(event.output) },
            target: 'finished',
            actions: [
              { type: 'storeOperation', params: ({ event }) => startedOf(event.output) },
              { type: 'publishOperation', params: ({ event }) => startedOf(event.output)!.id },
              { type: 'notifyStarted', params: ({ event }) => (event.output.ok ? event.output.data.message : '') },
              { type: 'notifyFinished', params: ({ event }) => startedOf(event.output)! },
            ],
          },
          {
            guard: { type: 'isAnswered', params: ({ event }) => event.output },
            target: 'running',
            actions: [
              { type: 'storeOperation', params: ({ event }) => startedOf(event.output) },
              { type: 'publishOperation', params: ({ event }) => startedOf(event.output)!.id },
              { type: 'notifyStarted', params: ({ event }) => (event.output.ok ? event.output.data.message : '') },
            ],
          },
          { target: 'startFailed', actions: { type: 'storeFailure', params: ({ event }) => failureOf(event.output) } },
        ],
        onError: { target: 'startFailed', actions: { type: 'storeFailure', params: FALLBACK_LOAD_ERROR } },
      },
    },
    startFailed: {
      on: { 'user.edit': { target: 'editing', actions: 'clearPreview' } },
    },
    opening: {
      tags: ['busy'],
      entry: 'clearFailure',
      invoke: {
        id: 'loadBulkOperation',
        src: 'loadBulkOperation',
        input: ({ context }) => context.operationId!,
        onDone: [
          {
            guard: { type: 'isFinished', params: ({ event }) => operationOf(event.output) },
            target: 'finished',
            actions: { type: 'storeOperation', params: ({ event }) => operationOf(event.output) },
          },
          {
            guard: { type: 'isAnswered', params: ({ event }) => event.output },
            target: 'running',
            actions: { type: 'storeOperation', params: ({ event }) => operationOf(event.output) },
          },
          { target: 'loadFailed', actions: { type: 'storeFailure', params: ({ event }) => failureOf(event.output) } },
        ],
        onError: { target: 'loadFailed', actions: { type: 'storeFailure', params: FALLBACK_LOAD_ERROR } },
      },
    },
    running: {
      initial: 'waiting',
      on: {
        // The job goes on without the page; it is listed under Recent bulk actions.
        'user.reset': { target: 'editing', actions: ['clearAll', { type: 'publishOperation', params: null }] },
      },
      states: {
        waiting: {
          after: { pollInterval: 'polling' },
        },
        polling: {
          invoke: {
            id: 'loadBulkOperation',
            src: 'loadBulkOperation',
            input: ({ context }) => context.operationId!,
            onDone: [
              {
                guard: { type: 'isFinished', params: ({ event }) => operationOf(event.output) },
                target: '#bulkAction.finished',
                actions: [
                  { type: 'storeOperation', params: ({ event }) => operationOf(event.output) },
                  { type: 'notifyFinished', params: ({ event }) => operationOf(event.output)! },
                ],
              },
              {
                guard: { type: 'isAnswered', params: ({ event }) => event.output },
                target: 'waiting',
                actions: { type: 'storeOperation', params: ({ event }) => operationOf(event.output) },
              },
              { target: '#bulkAction.loadFailed', actions: { type: 'storeFailure', params: ({ event }) => failureOf(event.output) } },
            ],
            onError: { target: '#bulkAction.loadFailed', actions: { type: 'storeFailure', params: FALLBACK_LOAD_ERROR } },
          },
        },
      },
    },
    finished: {
      on: {
        'user.reset': { target: 'editing', actions: ['clearAll', { type: 'publishOperation', params: null }] },
      },
    },
    loadFailed: {
      on: {
        // Reads the operation again: still running, the page follows it again.
        'user.retry': 'opening',
        'user.reset': { target: 'editing', actions: ['clearAll', { type: 'publishOperation', params: null }] },
      },
    },
  },
});

export type BulkActionMachine = typeof bulkActionMachine;
