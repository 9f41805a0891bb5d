// The list factory (createListMachine), modelled on its `customers` instance: the customers list
// on /customers (page, search and status in the URL). Its generated paths walked on the machine
// and through the page, plus journeys pinned by hand.
import { act, screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { SimulatedClock, createActor, fromPromise, waitFor, type EventFromLogic, type SnapshotFrom } from 'xstate';
import { CUSTOMER_STATUS_FILTERS, CUSTOMERS_PAGE_SIZE, type CustomerListItem, type CustomerStatusFilter } from '../../../src/domain/customers';
import { createListMachine, SEARCH_DEBOUNCE_MS, type ListPage, type ListQuery } from '../../../src/machines/list';
import { FALLBACK_LOAD_ERROR, type LoadOutcome } from '../../../src/machines/resource';
import { customerFixture } from '../../fixtures/customers';
import { defineModel, done, failed } from '../framework/model';
import { openPage, type PageScreen } from '../framework/screen';
import { modelSuite } from '../framework/suite';

type Status = CustomerStatusFilter;
const defaultQuery: ListQuery<Status> = { page: 1, limit: CUSTOMERS_PAGE_SIZE, search: '', status: 'all' };
// The same id and default query as the page's instance: the UI run drives the actor whose
// machine has this id.
const customersListMachine = createListMachine<CustomerListItem, Status>({ id: 'customers', defaultQuery });

const nina = customerFixture();
/** Three pages' worth in total, so the paginator offers page 2. */
const pageOf = (rows: CustomerListItem[], total = 30): LoadOutcome<ListPage<CustomerListItem>> => ({
  ok: true,
  data: { rows, pagination: { total, page: 1, limit: CUSTOMERS_PAGE_SIZE, pages: Math.ceil(total / CUSTOMERS_PAGE_SIZE) } },
});
const refused = (message: string): LoadOutcome<ListPage<CustomerListItem>> => ({ ok: false, message });

const statusLabel = (status: Status) => CUSTOMER_STATUS_FILTERS.find((option) => option.value === status)!.label;
const searchBox = () => screen.getByRole('searchbox', { name: 'Search customers' }) as HTMLInputElement;
const statusFilter = () => screen.getByLabelText('Status filter') as HTMLInputElement;

/** The URL carries the applied query (not what is being typed), defaults left out. */
function expectAddress({ location }: PageScreen, query: ListQuery<Status>) {
  const params = new URLSearchParams(location().split('?')[1] ?? '');
  expect(params.get('page')).toBe(query.page === 1 ? null : String(query.page));
  expect(params.get('search')).toBe(query.search === '' ? null : query.search);
  expect(params.get('status')).toBe(query.status === 'all' ? null : query.status);
}

type ListSnapshot = SnapshotFrom<typeof customersListMachine>;

/**
 * Where the page offers each event: `searchBox.settled` is raised by the machine itself once the
 * typing pauses (the run reaches it through the debounce), and the paginator sits under the
 * table, which shows once there are rows and never over the error card.
 */
function listDrivable(snapshot: ListSnapshot, event: EventFromLogic<typeof customersListMachine>): boolean {
  if (event.type === 'searchBox.settled') return false;
  if (event.type !== 'user.page') return true;
  return !snapshot.matches({ data: 'failed' }) && (snapshot.context.rows.length > 0 || !snapshot.hasTag('loading'));
}

/** The list region as the user sees it: the toolbar shows the query, the URL mirrors it. */
function expectToolbar(snapshot: ListSnapshot, page: PageScreen) {
  expect(searchBox().value).toBe(snapshot.context.searchInput);
  expect(statusFilter().value).toBe(statusLabel(snapshot.context.query.status));
  expectAddress(page, snapshot.context.query);
}

function expectRowsShown({ context }: ListSnapshot) {
  const table = screen.getByRole('table', { name: 'Customers' });
  for (const row of context.rows) expect(within(table).getByText(row.company)).toBeTruthy();
  expect(screen.getByText(`Showing ${context.rows.length} of ${context.pagination!.total} customers`)).toBeTruthy();
  expect(screen.queryByText('Loading customers...')).toBeNull();
}

/** What the page loads besides the list: the stat cards, and the customer Add Customer creates. */
const pageAnswers = {
  'GET /api/v1/customers/stats': { body: { success: true, message: 'ok', data: { total: 30, active: 30, pending: 0, mfaEnabled: 0, blocked: 0, expiringSoon: 0, expired: 0 } } },
  'POST /api/v1/customers': { status: 201, body: { success: true, message: 'Customer created', data: { customer: customerFixture({ uuid: '99999999-0000-4000-8000-000000000099', company: 'Tailspin Toys', name: 'Tara Lee', email: 'tara@tailspin.example' }) } } },
};

export const listModel = defineModel<typeof customersListMachine, PageScreen>({
  name: 'list',
  machine: customersListMachine,
  // What the route gives on /customers.
  input: { query: { page: 1, search: '', status: 'all' } },
  events: {
    'query.change': [{ type: 'query.change', query: { page: 2, search: '', status: 'all' } }],
    'user.page': [{ type: 'user.page', page: 2 }],
    'user.status': [{ type: 'user.status', status: 'active' }],
    'user.searchInput': [{ type: 'user.searchInput', value: 'acme' }],
    'searchBox.settled': [{ type: 'searchBox.settled' }],
    'user.retry': [{ type: 'user.retry' }],
    'user.refresh': [{ type: 'user.refresh' }],
  },
  // Loads and reloads answer the same rows, refusals the fallback message: the walk is over value
  // and context, and these keep the context space small.
  actorResults: [
    done('load', pageOf([nina])),
    done('load', refused(FALLBACK_LOAD_ERROR)),
    failed('load', new TypeError('fetch failed')),
    done('reload', pageOf([nina])),
    done('reload', refused(FALLBACK_LOAD_ERROR)),
    failed('reload', new TypeError('fetch failed')),
  ],
  states: {
    'data.loading': (snapshot) => {
      expect(snapshot.hasTag('loading')).toBe(true);
      expect(snapshot.hasTag('refreshing')).toBe(false);
    },
    'data.ready.idle': ({ context, ...snapshot }) => {
      expect(snapshot.hasTag('loading') || snapshot.hasTag('refreshing')).toBe(false);
      expect(context.rows).toEqual([nina]);
      expect(context.pagination?.total).toBe(30);
    },
    'data.ready.refreshing': ({ context, ...snapshot }) => {
      expect(snapshot.hasTag('refreshing')).toBe(true);
      // The rows stay while they reload.
      expect(context.rows).toEqual([nina]);
    },
    'data.failed': ({ context }) => expect(context.error).toBe(FALLBACK_LOAD_ERROR),
    'searchBox.idle': ({ context }) => expect(context.searchInput.trim()).toBe(context.query.search),
    'searchBox.debouncing': ({ context }) => expect(context.searchInput).toBe('acme'),
  },
  ui: {
    drivable: listDrivable,
    open: async (seam) => {
      const page = openPage('/customers', seam, pageAnswers);
      // The first page of a run waits for the session check before the list starts.
      await screen.findByRole('searchbox', { name: 'Search customers' }, { timeout: 5000 });
      return page;
    },
    events: {
      // The address changes under the page: a link, Back, or an edited URL.
      'query.change': async ({ history }, event) => {
        const params = new URLSearchParams();
        if (event.query.page !== 1) params.set('page', String(event.query.page));
        if (event.query.search) params.set('search', event.query.search);
        if (event.query.status !== 'all') params.set('status', event.query.status);
        await act(async () => history.push(`/customers${params.size ? `?${params}` : ''}`));
      },
      'user.page': async ({ user }, event) => user.click(screen.getByRole('button', { name: `Page ${event.page}` })),
      'user.status': async ({ user }, event) => {
        await user.click(statusFilter().closest('.p-dropdown')!);
        await user.click(within(await screen.findByRole('listbox')).getByRole('option', { name: statusLabel(event.status) }));
      },
      'user.searchInput': async ({ user }, event) => {
        await user.click(searchBox());
        await user.clear(searchBox());
        // Pasted: one input event, as the step is one event.
        await user.paste(event.value);
      },
      // The pause after typing is the clock the run advances; nothing on screen sends this alone.
      'searchBox.settled': async () => {
        throw new Error('searchBox.settled is raised by the machine when the typing pauses');
      },
      'user.retry': async ({ user }) => user.click(screen.getByRole('button', { name: /Try Again/ })),
      // The page reloads the list after every change it makes: here, a customer added.
      'user.refresh': async ({ user }) => {
        await user.click(screen.getByRole('button', { name: 'Add Customer' }));
        const form = within(await screen.findByRole('form', { name: 'Add New Customer' }));
        for (const [label, value] of [
          ['Company Name', 'Tailspin Toys'],
          ['Full Name', 'Tara Lee'],
          ['Email Address', 'tara@tailspin.example'],
        ] as const) {
          await user.click(form.getByLabelText(label));
          await user.paste(value);
        }
        await user.click(screen.getByRole('button', { name: 'Create Customer Account' }));
      },
    },
    states: {
      'data.loading': (snapshot, page) => {
        expect(screen.getAllByText('Loading customers...').length).toBeGreaterThan(0);
        // The rows of the previous query stay under the loading caption.
        if (snapshot.context.rows.length) expect(within(screen.getByRole('table', { name: 'Customers' })).getByText(nina.company)).toBeTruthy();
        expectToolbar(snapshot, page);
      },
      'data.ready.idle': (snapshot, page) => {
        expectRowsShown(snapshot);
        expectToolbar(snapshot, page);
      },
      // Reloading in place looks like the list at rest: the rows stay, no loading caption.
      'data.ready.refreshing': (snapshot, page) => {
        expectRowsShown(snapshot);
        expectToolbar(snapshot, page);
      },
      'data.failed': (snapshot) => {
        const card = screen.getByRole('heading', { name: 'Error loading customers' }).closest('[role="alert"]') as HTMLElement;
        expect(within(card).getByText(snapshot.context.error!)).toBeTruthy();
        expect(screen.queryByRole('table', { name: 'Customers' })).toBeNull();
      },
      'searchBox.idle': (snapshot) => expect(searchBox().value.trim()).toBe(snapshot.context.query.search),
      'searchBox.debouncing': (snapshot, page) => {
        expect(searchBox().value).toBe(snapshot.context.searchInput);
        // The typed text is not applied (nor in the address) until the typing pauses.
        expectAddress(page, snapshot.context.query);
      },
    },
  },
});

modelSuite(listModel);

type Answer = LoadOutcome<ListPage<CustomerListItem>> | Error | 'hang';

/** A customers list whose loads answer in order. */
function startList(answers: Answer[], clock: SimulatedClock) {
  const loads: ListQuery<Status>[] = [];
  const published = vi.fn();
  const actor = createActor(
    customersListMachine.provide({
      actors: {
        load: fromPromise(async ({ input }) => {
          loads.push(input);
          const answer = answers[Math.min(loads.length - 1, answers.length - 1)]!;
          if (answer === 'hang') return new Promise<never>(() => {});
          if (answer instanceof Error) throw answer;
          return answer;
        }),
      },
      actions: { publishQuery: (_, location) => published(location) },
    }),
    { clock, input: { query: {} } },
  ).start();
  return { actor, loads, published };
}

const atRest = (s: ListSnapshot) => s.matches({ data: { ready: 'idle' } });

describe('list machine (pinned journeys)', () => {
  // Pinned by hand: generated expectations would move with a wrong transition, these do not.
  it('load fails, Try Again, page 2, filter, search: ends on page 1 of the filtered search with one publish per choice', async () => {
    const clock = new SimulatedClock();
    const omar = customerFixture({ uuid: '8e4f0b52-6c3d-4e9f-a021-3b4c5d6e7f80', company: 'Contoso Marine' });
    const { actor, loads, published } = startList([refused('Down'), pageOf([nina]), pageOf([omar]), pageOf([nina], 3), pageOf([omar], 1)], clock);
    await waitFor(actor, (s) => s.matches({ data: 'failed' }));
    actor.send({ type: 'user.retry' });
    await waitFor(actor, atRest);
    actor.send({ type: 'user.page', page: 2 });
    await waitFor(actor, atRest);
    actor.send({ type: 'user.status', status: 'blocked' });
    await waitFor(actor, atRest);
    actor.send({ type: 'user.searchInput', value: 'north' });
    clock.increment(SEARCH_DEBOUNCE_MS);
    const snapshot = await waitFor(actor, atRest);
    expect(snapshot.value).toEqual({ data: { ready: 'idle' }, searchBox: 'idle' });
    expect(snapshot.context.query).toEqual({ page: 1, limit: CUSTOMERS_PAGE_SIZE, search: 'north', status: 'blocked' });
    expect(snapshot.context.rows).toEqual([omar]);
    expect(loads).toHaveLength(5);
    expect(published.mock.calls.map(([location]) => location)).toEqual([
      { page: 2, limit: CUSTOMERS_PAGE_SIZE, search: '', status: 'all' },
      { page: 1, limit: CUSTOMERS_PAGE_SIZE, search: '', status: 'blocked' },
      { page: 1, limit: CUSTOMERS_PAGE_SIZE, search: 'north', status: 'blocked' },
    ]);
  });
});
