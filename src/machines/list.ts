/**
 * A paged, searchable, filterable list page (customers, later users and terminals): one factory,
 * not copies. The query (page, search, status) mirrors the URL: the route sends `query.change`
 * when the URL changes, and the machine asks the app to `publishQuery` when the user changes it.
 *
 *   data.loading           "Loading customers..." (rows of the previous query stay under it)  (tag: loading)
 *   data.ready.idle        the rows, the caption and the paginator
 *   data.ready.refreshing  the rows stay on screen while they reload in place              (tag: refreshing)
 *   data.failed            the error card with Try Again (and a failure toast)
 *
 *   searchBox.idle         the search box shows the applied search
 *   searchBox.debouncing   the user is typing; the search applies once they pause (searchDebounce)
 */
import { assign, fromPromise, raise, setup } from 'xstate';
import type { Pagination } from '../domain/customers';
import { FALLBACK_LOAD_ERROR, type LoadOutcome } from './resource';

export interface ListQuery<TStatus extends string = string> {
  /** 1-based. */
  page: number;
  limit: number;
  /** Trimmed; '' for none. */
  search: string;
  status: TStatus;
}

/** The part of the query the URL carries. */
export type ListLocation<TStatus extends string = string> = Pick<ListQuery<TStatus>, 'page' | 'search' | 'status'>;

export interface ListPage<TRow> {
  rows: TRow[];
  pagination: Pagination;
}

export interface ListContext<TRow, TStatus extends string = string> {
  query: ListQuery<TStatus>;
  /** The search box as typed (applied to `query.search` once the typing pauses). */
  searchInput: string;
  rows: TRow[];
  /** From the last successful load; null before one. */
  pagination: Pagination | null;
  error: string | null;
}

export type ListEvent<TStatus extends string = string> =
  | { type: 'query.change'; query: ListLocation<TStatus> }
  | { type: 'user.page'; page: number }
  | { type: 'user.status'; status: TStatus }
  | { type: 'user.searchInput'; value: string }
  | { type: 'searchBox.settled' }
  | { type: 'user.retry' }
  | { type: 'user.refresh' };

export interface ListInput<TStatus extends string = string> {
  query?: Partial<ListLocation<TStatus>>;
}

export const SEARCH_DEBOUNCE_MS = 300;

/**
 * A search box that applies once the typing pauses: the states of a `searchBox` region, shared by
 * the list pages and the customer usage table. The machine names `storeSearchInput` (keeps what is
 * typed), `settleSearchBox` (raises `searchBox.settled`) and the `searchDebounce` delay.
 */
export const searchBoxStates = {
  idle: {
    on: {
      'user.searchInput': { target: 'debouncing', actions: { type: 'storeSearchInput', params: ({ event }: { event: { value: string } }) => event.value } },
    },
  },
  debouncing: {
    on: {
      // Every keystroke starts the pause again.
      'user.searchInput': {
        target: 'debouncing',
        reenter: true,
        actions: { type: 'storeSearchInput', params: ({ event }: { event: { value: string } }) => event.value },
      },
    },
    after: { searchDebounce: { target: 'idle', actions: 'settleSearchBox' } },
  },
} as const;

export function createListMachine<TRow, TStatus extends string>(options: { id: string; defaultQuery: ListQuery<TStatus> }) {
  const { id, defaultQuery } = options;
  type Context = ListContext<TRow, TStatus>;
  type Outcome = LoadOutcome<ListPage<TRow>>;
  const sameLocation = (a: ListLocation<TStatus>, b: ListLocation<TStatus>) =>
    a.page === b.page && a.search === b.search && a.status === b.status;

  return setup({
    types: {
      context: {} as Context,
      events: {} as ListEvent<TStatus>,
      input: {} as ListInput<TStatus> | undefined,
    },
    actors: {
      load: fromPromise<Outcome, ListQuery<TStatus>>(async () => {
        throw new Error(`${id}: load is provided by the app`);
      }),
    },
    delays: {
      searchDebounce: SEARCH_DEBOUNCE_MS,
    },
    actions: {
      takeLocation: assign(({ context }, location: ListLocation<TStatus>) => ({
        query: { ...context.query, ...location },
        searchInput: location.search,
      })),
      takePage: assign(({ context }, page: number) => ({ query: { ...context.query, page } })),
      takeStatus: assign(({ context }, { status }: { status: TStatus }) => ({ query: { ...context.query, status, page: 1 } })),
      takeSearch: assign(({ context }) => ({ query: { ...context.query, search: context.searchInput.trim(), page: 1 } })),
      storeSearchInput: assign((_, value: string) => ({ searchInput: value })),
      settleSearchBox: raise({ type: 'searchBox.settled' }),
      storePage: assign((_, outcome: Outcome) => (outcome.ok ? { rows: outcome.data.rows, pagination: outcome.data.pagination, error: null } : {})),
      storeError: assign((_, outcome: Outcome) => ({ error: outcome.ok ? null : outcome.message })),
      storeFallbackError: assign({ error: FALLBACK_LOAD_ERROR }),
      /** Puts the query the user chose into the URL (the route navigates). */
      publishQuery: (_, _location: ListLocation<TStatus>) => {},
      /** Tells the user a load failed (the route shows a toast). */
      reportLoadFailure: (_, _message: string) => {},
    },
    guards: {
      isLoaded: (_, outcome: Outcome) => outcome.ok,
      isNewLocation: ({ context }, location: ListLocation<TStatus>) => !sameLocation(context.query, location),
      isOtherPage: ({ context }, page: number) => Number.isInteger(page) && page >= 1 && page !== context.query.page,
      isOtherStatus: ({ context }, { status }: { status: TStatus }) => status !== context.query.status,
      isOtherSearch: ({ context }) => context.searchInput.trim() !== context.query.search,
    },
  }).createMachine({
    id,
    context: ({ input }) => {
      const query = { ...defaultQuery, ...input?.query };
      return { query, searchInput: query.search, rows: [], pagination: null, error: null };
    },
    type: 'parallel',
    states: {
      data: {
        initial: 'loading',
        on: {
          // The URL moved (back, a link, a reload, or our own publishQuery echoing back): load it
          // unless it is what is already loaded or loading. Re-entering `loading` aborts the request
          // it supersedes. No `reenter`: targeting the child already re-enters `loading`, while a
          // re-entering transition on a parallel region re-enters every region (the SCXML domain
          // skips parallel states) and dropped a search still being typed.
          'query.change': {
            guard: { type: 'isNewLocation', params: ({ event }) => event.query },
            target: '.loading',
            actions: { type: 'takeLocation', params: ({ event }) => event.query },
          },
          'user.page': {
            guard: { type: 'isOtherPage', params: ({ event }) => event.page },
            target: '.loading',
            actions: [
              { type: 'takePage', params: ({ event }) => event.page },
              { type: 'publishQuery', params: ({ context }) => context.query },
            ],
          },
          'user.status': {
            guard: { type: 'isOtherStatus', params: ({ event }) => ({ status: event.status }) },
            target: '.loading',
            actions: [
              { type: 'takeStatus', params: ({ event }) => ({ status: event.status }) },
              { type: 'publishQuery', params: ({ context }) => context.query },
            ],
          },
          'searchBox.settled': {
            guard: 'isOtherSearch',
            target: '.loading',
            actions: ['takeSearch', { type: 'publishQuery', params: ({ context }) => context.query }],
          },
        },
        states: {
          loading: {
            tags: ['loading'],
            // A change made while the list loads may not be in the answer under way: start again.
            on: { 'user.refresh': { target: 'loading', reenter: true } },
            invoke: {
              id: 'load',
              src: 'load',
              input: ({ context }) => context.query,
              onDone: [
                {
                  guard: { type: 'isLoaded', params: ({ event }) => event.output },
                  target: 'ready',
                  actions: { type: 'storePage', params: ({ event }) => event.output },
                },
                {
                  target: 'failed',
                  actions: [
                    { type: 'storeError', params: ({ event }) => event.output },
                    { type: 'reportLoadFailure', params: ({ context }) => context.error ?? FALLBACK_LOAD_ERROR },
                  ],
                },
              ],
              onError: {
                target: 'failed',
                actions: ['storeFallbackError', { type: 'reportLoadFailure', params: FALLBACK_LOAD_ERROR }],
              },
            },
          },
          ready: {
            initial: 'idle',
            states: {
              idle: { on: { 'user.refresh': 'refreshing' } },
              refreshing: {
                tags: ['refreshing'],
                on: { 'user.refresh': { target: 'refreshing', reenter: true } },
                invoke: {
                  id: 'reload',
                  src: 'load',
                  input: ({ context }) => context.query,
                  onDone: [
                    {
                      guard: { type: 'isLoaded', params: ({ event }) => event.output },
                      target: 'idle',
                      actions: { type: 'storePage', params: ({ event }) => event.output },
                    },
                    // A failed refresh keeps the rows on screen and says why in a toast.
                    {
                      target: 'idle',
                      actions: [
                        { type: 'storeError', params: ({ event }) => event.output },
                        { type: 'reportLoadFailure', params: ({ context }) => context.error ?? FALLBACK_LOAD_ERROR },
                      ],
                    },
                  ],
                  onError: {
                    target: 'idle',
                    actions: ['storeFallbackError', { type: 'reportLoadFailure', params: FALLBACK_LOAD_ERROR }],
                  },
                },
              },
            },
          },
          failed: {
            on: { 'user.retry': 'loading', 'user.refresh': 'loading' },
          },
        },
      },
      searchBox: {
        initial: 'idle',
        on: {
          // A URL change replaces whatever is in the box, typed or not.
          'query.change': {
            guard: { type: 'isNewLocation', params: ({ event }) => event.query },
            target: '.idle',
          },
        },
        states: searchBoxStates,
      },
    },
  });
}

export type ListMachine<TRow, TStatus extends string> = ReturnType<typeof createListMachine<TRow, TStatus>>;
