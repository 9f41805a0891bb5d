/**
 * The provider console ("Starlink API Simulator" page, spec sections 2 and 8 "Simulator"): two
 * independent regions side by side. The search box text lives in context in every state.
 *
 *   terminals.idle       the "Load Terminals" button, nothing loaded yet
 *   terminals.loading    "Loading..." on the button                          (tag: loadingTerminals)
 *   terminals.loaded     Total / Active counts and call duration beside the button, and the
 *                        User Terminals Results tabs (or the "No Terminals Found" card)
 *   terminals.failed     red error card; Try Again loads again
 *
 *   search.idle          the search box; Search is enabled once the trimmed input is non-empty
 *   search.searching     "Searching..." on the disabled button                (tag: searching)
 *   search.found         the Search Results tabs
 *   search.notFound      the "Service Line Not Found" card
 *   search.failed        red error card; Try Again searches again
 */
import { assign, fromPromise, setup } from 'xstate';
import { NetworkError, type ApiResult } from '../api/client';
import {
  CONSOLE_MESSAGES,
  normaliseServiceLineInput,
  type ServiceLineSearchResponse,
  type UserTerminalsResponse,
} from '../domain/provider-console';

export interface ProviderConsoleContext {
  /** The search box, as typed. */
  input: string;
  /** The trimmed service line number of the current or last search. */
  query: string | null;
  terminals: UserTerminalsResponse | null;
  terminalsError: string | null;
  searchResult: ServiceLineSearchResponse | null;
  searchError: string | null;
}

export type ProviderConsoleEvent =
  | { type: 'user.type'; value: string }
  | { type: 'user.search' }
  | { type: 'user.loadTerminals' };

export type SearchResult = ApiResult<ServiceLineSearchResponse>;
export type TerminalsResult = ApiResult<UserTerminalsResponse>;

/** The server's message when it gave one, else the spec's generic "API request failed". */
function failureMessage(result: ApiResult<{ success: boolean; error: string | null }>): string {
  if (!result.ok) return result.message || CONSOLE_MESSAGES.apiFailed;
  return result.data.error || CONSOLE_MESSAGES.apiFailed;
}

/** An envelope success can still carry the provider's own `success: false`. */
const isAnswered = (result: ApiResult<{ success: boolean }>) => result.ok && result.data.success !== false;

export const providerConsoleMachine = setup({
  types: {
    context: {} as ProviderConsoleContext,
    events: {} as ProviderConsoleEvent,
  },
  actors: {
    search: fromPromise<SearchResult, string>(async () => {
      throw new Error('search is provided by the app');
    }),
    userTerminals: fromPromise<TerminalsResult>(async () => {
      throw new Error('userTerminals is provided by the app');
    }),
  },
  actions: {
    storeInput: assign((_, value: string) => ({ input: value })),
    takeQuery: assign(({ context }) => ({
      query: normaliseServiceLineInput(context.input),
      searchResult: null,
      searchError: null,
    })),
    storeSearchResult: assign((_, result: SearchResult) => ({ searchResult: result.ok ? result.data : null })),
    storeSearchFailure: assign((_, result: SearchResult) => ({ searchError: failureMessage(result) })),
    storeSearchNetworkError: assign({ searchError: CONSOLE_MESSAGES.network }),
    storeSearchUnexpectedError: assign({ searchError: CONSOLE_MESSAGES.unexpectedSearch }),
    clearTerminals: assign({ terminals: null, terminalsError: null }),
    storeTerminals: assign((_, result: TerminalsResult) => ({ terminals: result.ok ? result.data : null })),
    storeTerminalsFailure: assign((_, result: TerminalsResult) => ({ terminalsError: failureMessage(result) })),
    storeTerminalsNetworkError: assign({ terminalsError: CONSOLE_MESSAGES.network }),
    storeTerminalsUnexpectedError: assign({ terminalsError: CONSOLE_MESSAGES.unexpectedTerminals }),
  },
  guards: {
    hasServiceLine: ({ context }) => normaliseServiceLineInput(context.input) !== null,
    isFound: (_, result: SearchResult) => isAnswered(result) && result.ok && result.data.serviceLineFound,
    isNotFound: (_, result: SearchResult) => isAnswered(result) && result.ok && !result.data.serviceLineFound,
    isAnswered: (_, result: TerminalsResult) => isAnswered(result),
    isNetworkError: (_, { error }: { error: unknown }) => error instanceof NetworkError,
  },
}).createMachine({
  id: 'providerConsole',
  context: { input: '', query: null, terminals: null, terminalsError: null, searchResult: null, searchError: null },
  type: 'parallel',
  // Typing never interrupts a search under way: the search keeps the query it started with.
  on: { 'user.type': { actions: { type: 'storeInput', params: ({ event }) => event.value } } },
  states: {
    terminals: {
      initial: 'idle',
      states: {
        idle: { on: { 'user.loadTerminals': 'loading' } },
        loading: {
          tags: ['loadingTerminals'],
          entry: 'clearTerminals',
          invoke: {
            id: 'userTerminals',
            src: 'userTerminals',
            onDone: [
              {
                guard: { type: 'isAnswered', params: ({ event }) => event.output },
                target: 'loaded',
                actions: { type: 'storeTerminals', params: ({ event }) => event.output },
              },
              { target: 'failed', actions: { type: 'storeTerminalsFailure', params: ({ event }) => event.output } },
            ],
            onError: [
              {
                guard: { type: 'isNetworkError', params: ({ event }) => ({ error: event.error }) },
                target: 'failed',
                actions: 'storeTerminalsNetworkError',
              },
              { target: 'failed', actions: 'storeTerminalsUnexpectedError' },
            ],
          },
        },
        loaded: { on: { 'user.loadTerminals': 'loading' } },
        failed: { on: { 'user.loadTerminals': 'loading' } },
      },
    },
    search: {
      initial: 'idle',
      states: {
        idle: { on: { 'user.search': { guard: 'hasServiceLine', target: 'searching' } } },
        searching: {
          tags: ['searching'],
          entry: 'takeQuery',
          invoke: {
            id: 'search',
            src: 'search',
            input: ({ context }) => context.query ?? '',
            onDone: [
              {
                guard: { type: 'isFound', params: ({ event }) => event.output },
                target: 'found',
                actions: { type: 'storeSearchResult', params: ({ event }) => event.output },
              },
              // Not found is an answer, not a failure: the server says 200 with serviceLineFound false.
              {
                guard: { type: 'isNotFound', params: ({ event }) => event.output },
                target: 'notFound',
                actions: { type: 'storeSearchResult', params: ({ event }) => event.output },
              },
              { target: 'failed', actions: { type: 'storeSearchFailure', params: ({ event }) => event.output } },
            ],
            onError: [
              {
                guard: { type: 'isNetworkError', params: ({ event }) => ({ error: event.error }) },
                target: 'failed',
                actions: 'storeSearchNetworkError',
              },
              { target: 'failed', actions: 'storeSearchUnexpectedError' },
            ],
          },
        },
        found: { on: { 'user.search': { guard: 'hasServiceLine', target: 'searching' } } },
        notFound: { on: { 'user.search': { guard: 'hasServiceLine', target: 'searching' } } },
        failed: { on: { 'user.search': { guard: 'hasServiceLine', target: 'searching' } } },
      },
    },
  },
});
