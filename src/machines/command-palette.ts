/**
 * The command palette: Ctrl/Cmd+K anywhere in the admin portal, type, arrow to an
 * option, Enter opens it. Pages are matched from the menu at once; the server is asked once the
 * typing pauses.
 *
 *   closed            nothing on screen
 *   open.idle         nothing typed: every page of the menu
 *   open.debouncing   typing: the matching pages; the server is asked once it pauses (searchDebounce) (tag: busy)
 *   open.searching    the matching pages, "Searching…"; the request is cancelled if the text changes (tag: busy)
 *   open.results      the matching pages, then the server's answers
 *   open.empty        "No matches"
 *   open.failed       the pages, the failure's message and Try again
 *
 * Context holds what was typed, the server's answers and the active option's index; the options
 * themselves are derived (src/domain/search.ts paletteOptions), here and in the view alike.
 */
import { assign, fromPromise, setup } from 'xstate';
import { optionUrl, PALETTE_PAGES, paletteOptions, searchQuery, type PalettePage, type SearchResultWire } from '../domain/search';
import { FALLBACK_LOAD_ERROR, type LoadOutcome } from './resource';

export type SearchOutcome = LoadOutcome<SearchResultWire[]>;

export const PALETTE_DEBOUNCE_MS = 200;

export interface CommandPaletteContext {
  /** The pages the user may open (the menu they see). */
  pages: readonly PalettePage[];
  /** The text as typed. */
  input: string;
  /** The server's answers to the text as typed (none until it answered). */
  results: SearchResultWire[];
  /** Index into the options; 0 when there are none. */
  activeIndex: number;
  error: string | null;
}

export type PaletteMove = 'next' | 'previous' | 'first' | 'last';

export type CommandPaletteEvent =
  | { type: 'user.open' }
  | { type: 'user.close' }
  | { type: 'user.type'; value: string }
  | { type: 'user.move'; to: PaletteMove }
  | { type: 'user.point'; index: number }
  | { type: 'user.choose' }
  | { type: 'user.retry' };

export interface CommandPaletteInput {
  pages?: readonly PalettePage[];
}

/** The options the palette lists (the view derives the same from the same context). */
const optionsOf = (context: CommandPaletteContext) => paletteOptions(context.input, context.results, context.pages);

function moved(index: number, count: number, to: PaletteMove): number {
  if (count === 0) return 0;
  switch (to) {
    case 'next':
      return (index + 1) % count;
    case 'previous':
      return (index - 1 + count) % count;
    case 'first':
      return 0;
    case 'last':
      return count - 1;
  }
}

export const commandPaletteMachine = setup({
  types: {
    context: {} as CommandPaletteContext,
    events: {} as CommandPaletteEvent,
    input: {} as CommandPaletteInput | undefined,
  },
  actors: {
    search: fromPromise<SearchOutcome, { query: string }>(async () => {
      throw new Error('search is provided by the app');
    }),
  },
  delays: {
    searchDebounce: PALETTE_DEBOUNCE_MS,
  },
  actions: {
    clearQuery: assign({ input: '', results: [], activeIndex: 0, error: null }),
    storeInput: assign((_, value: string) => ({ input: value, results: [], activeIndex: 0, error: null })),
    moveActive: assign(({ context }, to: PaletteMove) => ({ activeIndex: moved(context.activeIndex, optionsOf(context).length, to) })),
    pointAt: assign(({ context }, index: number) => (Number.isInteger(index) && index >= 0 && index < optionsOf(context).length ? { activeIndex: index } : {})),
    storeResults: assign(({ context }, outcome: SearchOutcome) => {
      const results = outcome.ok ? outcome.data : [];
      const count = paletteOptions(context.input, results, context.pages).length;
      return { results, error: null, activeIndex: context.activeIndex < count ? context.activeIndex : 0 };
    }),
    storeError: assign((_, outcome: SearchOutcome) => ({ error: outcome.ok ? null : outcome.message })),
    storeFallbackError: assign({ error: FALLBACK_LOAD_ERROR }),
    /** Opens the chosen page or answer (the app navigates). */
    openOption: (_, _url: string) => {},
  },
  guards: {
    hasQuery: (_, value: string) => searchQuery(value) !== null,
    hasActiveOption: ({ context }) => optionsOf(context)[context.activeIndex] !== undefined,
    isFound: ({ context }, outcome: SearchOutcome) => outcome.ok && paletteOptions(context.input, outcome.data, context.pages).length > 0,
    isAnswered: (_, outcome: SearchOutcome) => outcome.ok,
  },
}).createMachine({
  id: 'commandPalette',
  context: ({ input }) => ({ pages: input?.pages ?? PALETTE_PAGES, input: '', results: [], activeIndex: 0, error: null }),
  initial: 'closed',
  states: {
    closed: {
      entry: 'clearQuery',
      on: { 'user.open': 'open' },
    },
    open: {
      initial: 'idle',
      on: {
        'user.close': 'closed',
        'user.type': [
          // Re-entering aborts the request under way: its answer would be for an older text.
          {
            guard: { type: 'hasQuery', params: ({ event }) => event.value },
            target: '.debouncing',
            reenter: true,
            actions: { type: 'storeInput', params: ({ event }) => event.value },
          },
          { target: '.idle', actions: { type: 'storeInput', params: ({ event }) => event.value } },
        ],
        'user.move': { actions: { type: 'moveActive', params: ({ event }) => event.to } },
        'user.point': { actions: { type: 'pointAt', params: ({ event }) => event.index } },
        'user.choose': {
          guard: 'hasActiveOption',
          target: 'closed',
          actions: { type: 'openOption', params: ({ context }) => optionUrl(optionsOf(context)[context.activeIndex]!) },
        },
      },
      states: {
        idle: {},
        debouncing: {
          tags: ['busy'],
          after: { searchDebounce: 'searching' },
        },
        searching: {
          tags: ['busy'],
          invoke: {
            id: 'search',
            src: 'search',
            input: ({ context }) => ({ query: searchQuery(context.input) ?? '' }),
            onDone: [
              {
                guard: { type: 'isFound', params: ({ event }) => event.output },
                target: 'results',
                actions: { type: 'storeResults', params: ({ event }) => event.output },
              },
              {
                guard: { type: 'isAnswered', params: ({ event }) => event.output },
                target: 'empty',
                actions: { type: 'storeResults', params: ({ event }) => event.output },
              },
              { target: 'failed', actions: { type: 'storeError', params: ({ event }) => event.output } },
            ],
            onError: { target: 'failed', actions: 'storeFallbackError' },
          },
        },
        results: {},
        empty: {},
        failed: {
          on: { 'user.retry': 'searching' },
        },
      },
    },
  },
});
