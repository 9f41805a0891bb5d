// A customer's terminals page through the whole client (composition root, router, session, the
// customerUsage and assignTerminals machines, the views) against a fake of the portal API at the
// fetch seam that keeps who holds which line, so assign and unassign change what it answers. The
// fake answers the usage table a page at a time the way the server does: the customer's rows
// searched, filtered and sorted by visibleUsageRecords and sliced to the page, with the summary
// cards counted by summariseUsage over all of them.
import { describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import {
  ASSIGN_MESSAGES,
  ASSIGN_REASONS,
  CUSTOMER_USAGE_MESSAGES,
  CUSTOMER_USAGE_PAGE_SIZE,
  CUSTOMER_USAGE_SORT_FIELDS,
  CUSTOMER_USAGE_STATUS_OPTIONS,
  summariseUsage,
  visibleUsageRecords,
  type CustomerUsageSortField,
  type CustomerUsageStatusFilter,
  type TerminalUsageRecord,
} from '../../src/domain/customer-terminals';
import { lastTwelveMonths, TERMINAL_MESSAGES } from '../../src/domain/terminals';
import { validateCustomerTerminalsSearch } from '../../src/routes/search-params';
import { adminProfile } from '../machines/fixtures';
import { usageRecord } from '../fixtures/customer-terminals-client';
import { paginationOf } from '../../src/domain/customers';
import { openSignedInAt } from './open-app';

const CUSTOMER = { uuid: '0b6f3c7e-1d2a-4e5f-8a9b-0c1d2e3f4a5b', name: 'Nina Park', company: 'Northwind Shipping', email: 'ops@northwind.example' };
const OTHER = 'Andes Copper';
const LINES = ['AST-100001-20000-11', 'AST-100002-20000-11', 'AST-100003-20000-11', 'AST-100004-20000-11'];
/** More lines of the customer's, for the tests that need more than a page: AST-300000-40000-22, … */
const extraLine = (i: number) => `AST-3000${String(i).padStart(2, '0')}-40000-22`;
const terminalOf = (line: string) => `UT-${line.slice(4, 10)}`;

interface FakeOptions {
  customerStatus?: number;
  /** Lines the customer holds besides LINES 0 and 1 (listed after them). */
  extraLines?: number;
}

/**
 * The customer's line as the server reports it: LINES[0] is in Hamburg and over its priority data,
 * LINES[1] is suspended, every other line uses 200 of 1000 GB (the extra ones 300 + i).
 */
function recordOf(line: string): TerminalUsageRecord {
  const terminalId = terminalOf(line);
  if (line === LINES[0]) return usageRecord({ used: 1200, total: 1000 }, { serviceLineNumber: line, terminalId, location: 'Hamburg, DE' });
  if (line === LINES[1]) return usageRecord({ used: 200, total: 1000 }, { serviceLineNumber: line, terminalId, status: 'Suspended' });
  const extra = /^AST-3000(\d\d)-/.exec(line);
  return usageRecord({ used: extra ? 300 + Number(extra[1]) : 200, total: 1000 }, { serviceLineNumber: line, terminalId });
}

const isSortField = (value: string | null): value is CustomerUsageSortField => (CUSTOMER_USAGE_SORT_FIELDS as readonly (string | null)[]).includes(value);
const isStatusFilter = (value: string): value is CustomerUsageStatusFilter => CUSTOMER_USAGE_STATUS_OPTIONS.some((o) => o.value === value);

function fakePortalApi({ customerStatus = 200, extraLines = 0 }: FakeOptions = {}) {
  // Lines 0 and 1 (and any extra ones) are the customer's; line 3 belongs to another customer; line 2 is free.
  const holder = new Map<string, string | null>([
    [LINES[0]!, CUSTOMER.uuid],
    [LINES[1]!, CUSTOMER.uuid],
    [LINES[2]!, null],
    [LINES[3]!, 'someone-else'],
    ...Array.from({ length: extraLines }, (_, i) => [extraLine(i), CUSTOMER.uuid] as const),
  ]);
  const calls: string[] = [];
  const bodies: Array<[string, unknown]> = [];
  const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
  const ok = (data: unknown, message = 'ok') => json(200, { success: true, message, data });
  const fail = (status: number, message: string) => json(status, { success: false, message });
  const mine = () => [...holder.keys()].filter((line) => holder.get(line) === CUSTOMER.uuid);

  const fetch = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), 'http://localhost');
    const method = init?.method ?? 'GET';
    const call = `${method} ${url.pathname}`;
    const body = typeof init?.body === 'string' ? JSON.parse(init.body) : undefined;
    await new Promise((resolve) => setTimeout(resolve, 5));
    if (init?.signal?.aborted) throw new DOMException('The operation was aborted.', 'AbortError');
    calls.push(`${call}${url.search}`);
    if (body !== undefined) bodies.push([call, body]);
    if (new Headers(init?.headers).get('authorization') !== 'Bearer admin-token') return fail(401, 'Invalid or expired token');

    const base = `/api/v1/terminals/customers/${CUSTOMER.uuid}`;
    if (call === 'GET /api/v1/auth/me') return ok({ user: adminProfile });
    if (call === `GET /api/v1/customers/${CUSTOMER.uuid}`) {
      if (customerStatus !== 200) return fail(customerStatus, 'Customer not found');
      return ok({ customer: { ...CUSTOMER, isActive: true, blockedEnabled: false, mfaEnabled: false, accountExpiresAt: null } });
    }
    if (call === `GET ${base}/usage/page`) {
      const q = url.searchParams;
      if (!q.get('billing_cycle_start') || !q.get('billing_cycle_end')) return fail(400, 'billing_cycle_start and billing_cycle_end are required');
      const page = Number(q.get('page') ?? 1);
      const limit = Number(q.get('limit') ?? CUSTOMER_USAGE_PAGE_SIZE);
      const status = q.get('status') ?? 'all';
      const sort = q.get('sort');
      const order = q.get('order');
      if (!isStatusFilter(status) || (sort !== null && !isSortField(sort)) || (order !== null && order !== 'asc' && order !== 'desc')) {
        return fail(400, 'Invalid query');
      }
      const all = mine().map(recordOf);
      const rows = visibleUsageRecords(all, {
        search: q.get('search') ?? '',
        status,
        sort: sort === null ? null : { field: sort, order: order === 'desc' ? -1 : 1 },
      });
      return ok({
        records: rows.slice((page - 1) * limit, page * limit),
        pagination: { total: rows.length, page, limit, pages: Math.ceil(rows.length / limit) },
        summary: summariseUsage(all),
      });
    }
    if (call === `GET ${base}/usage/daily`) return ok([{ date: url.searchParams.get('start_date'), priorityGB: 4.5, standardGB: 1.25 }]);
    if (call === `GET ${base}/terminals/page`) {
      const all = mine().map((line) => ({ deviceId: terminalOf(line), serviceLine: line, status: 'Active', assignedTo: CUSTOMER.uuid, kitSerialNumber: 'KIT1', assignedAt: '2026-11-01T00:00:00.000Z' }));
      const limit = Number(url.searchParams.get('limit'));
      return ok({ records: all.slice(0, limit), pagination: paginationOf(all.length, 1, limit) });
    }
    if (call === 'POST /api/v1/terminals/customers/assign-terminals') {
      const { serviceLineNumbers } = body as { serviceLineNumbers: string[] };
      const assigned: string[] = [];
      const failed: unknown[] = [];
      for (const line of serviceLineNumbers) {
        if (!holder.has(line)) failed.push({ serviceLineNumber: line, reason: ASSIGN_REASONS.notFound, code: 'not_found' });
        else if (holder.get(line) === CUSTOMER.uuid) failed.push({ serviceLineNumber: line, reason: ASSIGN_REASONS.alreadyAssigned, code: 'already_assigned' });
        else if (holder.get(line)) failed.push({ serviceLineNumber: line, reason: ASSIGN_REASONS.assignedToOther(OTHER), code: 'assigned_to_other' });
        else {
          holder.set(line, CUSTOMER.uuid);
          assigned.push(line);
        }
      }
      return ok({ assigned, failed, total: serviceLineNumbers.length });
    }
    if (call === 'POST /api/v1/terminals/customers/unassign-terminal') {
      const { serviceLineNumber } = body as { serviceLineNumber: string };
      if (holder.get(serviceLineNumber) !== CUSTOMER.uuid) return fail(409, CUSTOMER_USAGE_MESSAGES.notAssigned(serviceLineNumber));
      holder.set(serviceLineNumber, null);
      return ok({ serviceLineNumber, unassigned: [terminalOf(serviceLineNumber)] }, CUSTOMER_USAGE_MESSAGES.unassigned(serviceLineNumber));
    }
    const detail = /^\/api\/v1\/terminals\/([^/]+)$/.exec(url.pathname);
    if (detail && method === 'GET') return fail(503, 'Database unavailable');
    if (/^\/api\/v1\/terminals\/service-line\/[^/]+\/usage$/.test(url.pathname)) return fail(404, 'Service line not found');
    return fail(404, `Route not found: ${call}`);
  });
  return { fetch, calls, bodies, holder };
}

function openPage(path = `/customer/terminals/${CUSTOMER.uuid}`, options: FakeOptions = {}) {
  const api = fakePortalApi(options);
  const usageCalls = () => api.calls.filter((c) => c.startsWith(`GET /api/v1/terminals/customers/${CUSTOMER.uuid}/usage/page?`));
  /** The query of each table request, in order. */
  const usageQueries = () => usageCalls().map((c) => Object.fromEntries(new URL(c.slice('GET '.length), 'http://localhost').searchParams));
  return { ...openSignedInAt(path, api.fetch), api, usageCalls, usageQueries };
}

const table = () => screen.getByRole('table', { name: 'Customer terminals' });
/**
 * The service lines in the table's rows. The waits poll this on every change of the page; a role
 * query walks every element of the page (a 25-row table is thousands) and asks each its role and
 * whether it is hidden, so this finds the table by the name the role query reads, its aria-label.
 * The tests still reach it by role where they look inside it.
 */
const shownLines = () => {
  const shown = document.querySelector('table[aria-label="Customer terminals"]');
  if (!shown) throw new Error('The Customer terminals table is not shown');
  return Array.from(shown.querySelectorAll('tbody .usage-service-line')).map((cell) => cell.textContent);
};
const cardValue = (title: string) =>
  within(screen.getByRole('group', { name: 'Usage summary' })).getByRole('region', { name: title }).querySelector('.stat-card-value')?.textContent;
const header = (name: string) => within(table()).getByRole('columnheader', { name: new RegExp(`^${name}`) });
const pad = (n: number) => String(n).padStart(2, '0');
/** This month's first and last UTC day, as the table's query gives them. */
function thisMonth() {
  const now = new Date();
  const last = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 0)).getUTCDate();
  const month = `${now.getUTCFullYear()}-${pad(now.getUTCMonth() + 1)}`;
  return { billing_cycle_start: `${month}-01`, billing_cycle_end: `${month}-${pad(last)}` };
}
const firstPage = { page: '1', limit: String(CUSTOMER_USAGE_PAGE_SIZE) };

describe("a customer's terminals page", () => {
  it("loads the customer and the first page of this month's usage: the month's first and last UTC day, page 1 and the page size go to the server", async () => {
    const { api, usageQueries } = openPage();
    expect(await screen.findByText(CUSTOMER.name, {}, { timeout: 5000 })).toBeTruthy();
    await waitFor(() => expect(shownLines()).toEqual([LINES[0], LINES[1]]));
    // No search, status or sort: nothing more in the query. StrictMode asks once.
    expect(usageQueries()).toEqual([{ ...thisMonth(), ...firstPage }]);
    // The whole list of the customer's usage is no longer asked for.
    expect(api.calls.some((c) => c.startsWith(`GET /api/v1/terminals/customers/${CUSTOMER.uuid}/usage?`))).toBe(false);
    // The server's summary: one line active (the other suspended), one over its priority data, 1240 + 240 GB.
    expect(cardValue('Total Terminals')).toBe('2');
    expect(cardValue('Active Terminals')).toBe('1');
    expect(cardValue('Total Data Used')).toBe('1.5 TB');
    expect(cardValue('Over Limit')).toBe('1');
  });

  it("pages through the server: Page 2 asks for page 2 and shows the server's rows; the cards count every terminal, not the page", async () => {
    const { user, usageQueries } = openPage(`/customer/terminals/${CUSTOMER.uuid}`, { extraLines: 28 });
    await waitFor(() => expect(shownLines()).toHaveLength(CUSTOMER_USAGE_PAGE_SIZE), { timeout: 5000 });
    expect(shownLines().slice(0, 3)).toEqual([LINES[0], LINES[1], extraLine(0)]);
    expect(cardValue('Total Terminals')).toBe('30');
    expect(cardValue('Over Limit')).toBe('1');

    await user.click(screen.getByRole('button', { name: 'Page 2' }));
    await waitFor(() => expect(shownLines()).toEqual([23, 24, 25, 26, 27].map(extraLine)));
    expect(usageQueries()).toEqual([
      { ...thisMonth(), ...firstPage },
      { ...thisMonth(), page: '2', limit: String(CUSTOMER_USAGE_PAGE_SIZE) },
    ]);
    expect(screen.getByRole('button', { name: 'Page 2' }).getAttribute('aria-current')).toBe('true');
    expect(cardValue('Total Terminals')).toBe('30');

    await user.click(screen.getByRole('button', { name: 'Previous Page' }));
    await waitFor(() => expect(shownLines()).toHaveLength(CUSTOMER_USAGE_PAGE_SIZE));
    expect(shownLines()[0]).toBe(LINES[0]);
    expect(usageQueries().at(-1)).toEqual({ ...thisMonth(), ...firstPage });
  });

  it('searching waits for the pause, sends the search from page 1, and shows what the server found; the cards still count every terminal', async () => {
    // 26 lines: a second page of one row, so the typing (each key renders the page again) happens
    // over one row rather than five.
    const { user, usageQueries } = openPage(`/customer/terminals/${CUSTOMER.uuid}`, { extraLines: 24 });
    await waitFor(() => expect(shownLines()).toHaveLength(CUSTOMER_USAGE_PAGE_SIZE), { timeout: 5000 });
    await user.click(screen.getByRole('button', { name: 'Page 2' }));
    await waitFor(() => expect(usageQueries().at(-1)?.page).toBe('2'));

    const box = screen.getByRole('searchbox', { name: 'Search terminals' }) as HTMLInputElement;
    // The keys follow one another without a pause between them, as a person's do: on a busy core
    // a render between two keys could outlast the search's 300 ms pause and send half a word.
    const typist = user.setup({ delay: null });
    await typist.type(box, ' Hamburg ');
    // What is typed stays in the box while the search waits for the pause.
    expect(box.value).toBe(' Hamburg ');
    await waitFor(() => expect(shownLines()).toEqual([LINES[0]]));
    // One request for the typing, not one per key; trimmed, and from the first page.
    expect(usageQueries().filter((q) => 'search' in q)).toEqual([{ ...thisMonth(), ...firstPage, search: 'Hamburg' }]);
    expect(usageQueries()).toHaveLength(3);
    expect(screen.queryByRole('button', { name: 'Page 2' })).toBeNull();
    // The summary is over all the customer's terminals, whatever the search.
    expect(cardValue('Total Terminals')).toBe('26');
    expect(cardValue('Over Limit')).toBe('1');

    await user.clear(box);
    // The pause is proved above; a word that matches nothing can arrive in one go.
    await user.paste('nowhere');
    await waitFor(() => expect(usageQueries().at(-1)).toEqual({ ...thisMonth(), ...firstPage, search: 'nowhere' }));
    expect(await within(table()).findByText(CUSTOMER_USAGE_MESSAGES.noMatches)).toBeTruthy();
    expect(shownLines()).toEqual([]);

    // Emptying the box asks for everything again, without a search parameter.
    await user.clear(box);
    await waitFor(() => expect(usageQueries().at(-1)).toEqual({ ...thisMonth(), ...firstPage }));
    await waitFor(() => expect(shownLines()).toHaveLength(CUSTOMER_USAGE_PAGE_SIZE));
  });

  it('the status filter sends the status from page 1 and shows the rows the server filtered; All Status leaves it out', async () => {
    const { user, usageQueries } = openPage();
    await waitFor(() => expect(shownLines()).toEqual([LINES[0], LINES[1]]), { timeout: 5000 });
    const pick = async (label: string) => {
      await user.click((screen.getByLabelText('Status filter') as HTMLElement).closest('.p-dropdown')!);
      await user.click(await screen.findByRole('option', { name: label }));
    };

    await pick('Suspended');
    await waitFor(() => expect(shownLines()).toEqual([LINES[1]]));
    expect(usageQueries().at(-1)).toEqual({ ...thisMonth(), ...firstPage, status: 'Suspended' });
    expect(cardValue('Total Terminals')).toBe('2');

    await pick('Maintenance');
    await waitFor(() => expect(usageQueries().at(-1)).toEqual({ ...thisMonth(), ...firstPage, status: 'Maintenance' }));
    expect(await within(table()).findByText(CUSTOMER_USAGE_MESSAGES.noMatches)).toBeTruthy();

    await pick('All Status');
    await waitFor(() => expect(shownLines()).toEqual([LINES[0], LINES[1]]));
    expect(usageQueries().at(-1)).toEqual({ ...thisMonth(), ...firstPage });
    expect(usageQueries()).toHaveLength(4);
  });

  it('a sortable header sends the sort and its order from page 1 and shows the rows in the order the server gave; a third click leaves it out', async () => {
    const { user, usageQueries } = openPage();
    await waitFor(() => expect(shownLines()).toEqual([LINES[0], LINES[1]]), { timeout: 5000 });

    await user.click(header('Usage'));
    // LINES[1] uses less priority data than LINES[0].
    await waitFor(() => expect(shownLines()).toEqual([LINES[1], LINES[0]]));
    expect(usageQueries().at(-1)).toEqual({ ...thisMonth(), ...firstPage, sort: 'usage', order: 'asc' });
    expect(header('Usage').getAttribute('aria-sort')).toBe('ascending');

    await user.click(header('Usage'));
    await waitFor(() => expect(usageQueries().at(-1)).toEqual({ ...thisMonth(), ...firstPage, sort: 'usage', order: 'desc' }));
    await waitFor(() => expect(shownLines()).toEqual([LINES[0], LINES[1]]));

    await user.click(header('Remaining'));
    await waitFor(() => expect(usageQueries().at(-1)).toEqual({ ...thisMonth(), ...firstPage, sort: 'remaining', order: 'asc' }));
    await waitFor(() => expect(shownLines()).toEqual([LINES[0], LINES[1]]));
    expect(header('Remaining').getAttribute('aria-sort')).toBe('ascending');
    expect(header('Usage').getAttribute('aria-sort')).toBe('none');

    await user.click(header('Remaining'));
    await waitFor(() => expect(shownLines()).toEqual([LINES[1], LINES[0]]));
    await user.click(header('Remaining'));
    await waitFor(() => expect(usageQueries().at(-1)).toEqual({ ...thisMonth(), ...firstPage }));
    await waitFor(() => expect(shownLines()).toEqual([LINES[0], LINES[1]]));
    expect(usageQueries()).toHaveLength(6);
  });

  it('a sort or status change goes back to the first page', async () => {
    const { user, usageQueries } = openPage(`/customer/terminals/${CUSTOMER.uuid}`, { extraLines: 28 });
    await waitFor(() => expect(shownLines()).toHaveLength(CUSTOMER_USAGE_PAGE_SIZE), { timeout: 5000 });
    const currentPage = () => screen.getAllByRole('button', { name: /^Page \d+$/ }).find((b) => b.getAttribute('aria-current') === 'true')?.textContent;

    await user.click(screen.getByRole('button', { name: 'Page 2' }));
    await waitFor(() => expect(shownLines()).toHaveLength(5));
    await user.click(header('Overage'));
    await waitFor(() => expect(usageQueries().at(-1)).toEqual({ ...thisMonth(), ...firstPage, sort: 'overage', order: 'asc' }));
    await waitFor(() => expect(shownLines()).toHaveLength(CUSTOMER_USAGE_PAGE_SIZE));
    expect(currentPage()).toBe('1');

    await user.click(screen.getByRole('button', { name: 'Page 2' }));
    await waitFor(() => expect(usageQueries().at(-1)).toEqual({ ...thisMonth(), page: '2', limit: String(CUSTOMER_USAGE_PAGE_SIZE), sort: 'overage', order: 'asc' }));
    await waitFor(() => expect(shownLines()).toHaveLength(5));
    await user.click((screen.getByLabelText('Status filter') as HTMLElement).closest('.p-dropdown')!);
    await user.click(await screen.findByRole('option', { name: 'Active' }));
    await waitFor(() => expect(usageQueries().at(-1)).toEqual({ ...thisMonth(), ...firstPage, status: 'Active', sort: 'overage', order: 'asc' }));
    await waitFor(() => expect(shownLines()).toHaveLength(CUSTOMER_USAGE_PAGE_SIZE));
    expect(shownLines()).not.toContain(LINES[1]);
    expect(currentPage()).toBe('1');
  });

  it('a link with ?month= opens that month, and choosing another month puts it in the URL and asks for it', async () => {
    const months = lastTwelveMonths(new Date());
    const { user, location, usageQueries } = openPage(`/customer/terminals/${CUSTOMER.uuid}?month=${months[3]!.value}`, { extraLines: 28 });
    const monthQuery = (m: (typeof months)[number]) => {
      const last = new Date(Date.UTC(m.year, m.month, 0)).getUTCDate();
      return { billing_cycle_start: `${m.year}-${pad(m.month)}-01`, billing_cycle_end: `${m.year}-${pad(m.month)}-${pad(last)}` };
    };
    await screen.findByText(CUSTOMER.name, {}, { timeout: 5000 });
    await waitFor(() => expect(shownLines()).toHaveLength(CUSTOMER_USAGE_PAGE_SIZE));
    expect(usageQueries()).toEqual([{ ...monthQuery(months[3]!), ...firstPage }]);

    // Another month starts again at its first page.
    await user.click(screen.getByRole('button', { name: 'Page 2' }));
    await waitFor(() => expect(usageQueries().at(-1)).toEqual({ ...monthQuery(months[3]!), page: '2', limit: String(CUSTOMER_USAGE_PAGE_SIZE) }));
    await user.click(screen.getByRole('combobox', { name: 'Month' }));
    await user.click(await screen.findByRole('option', { name: months[1]!.label }));
    await waitFor(() => expect(location()).toContain(`month=${months[1]!.value}`));
    await waitFor(() => expect(usageQueries().at(-1)).toEqual({ ...monthQuery(months[1]!), ...firstPage }));
    await waitFor(() => expect(shownLines()[0]).toBe(LINES[0]));
  });

  it('assigns three lines of which one is taken: two successes, one reason, the text cleared, the list and usage fetched again', async () => {
    const { user, api, usageCalls } = openPage();
    await waitFor(() => expect(within(table()).getByText(LINES[0]!)).toBeTruthy(), { timeout: 5000 });
    await user.click(screen.getByRole('button', { name: ASSIGN_MESSAGES.button }));
    const dialog = await screen.findByRole('dialog', { name: ASSIGN_MESSAGES.title });
    expect(within(dialog).getByText(CUSTOMER.uuid)).toBeTruthy();
    expect(await within(dialog).findByText(ASSIGN_MESSAGES.assignedCount(2))).toBeTruthy();

    const input = within(dialog).getByLabelText(ASSIGN_MESSAGES.inputLabel) as HTMLTextAreaElement;
    await user.click(input);
    await user.paste(`${LINES[2]}, ${LINES[3]}\nAST-999999-00000-00`);
    const usageBefore = usageCalls().length;
    await user.click(within(dialog).getByRole('button', { name: ASSIGN_MESSAGES.button }));

    expect(await within(dialog).findByText(ASSIGN_MESSAGES.successTitle(1))).toBeTruthy();
    expect(within(dialog).getByText(ASSIGN_MESSAGES.failureTitle(2))).toBeTruthy();
    expect(within(dialog).getByText(ASSIGN_REASONS.assignedToOther(OTHER))).toBeTruthy();
    expect(within(dialog).getByText(ASSIGN_REASONS.notFound)).toBeTruthy();
    expect(api.bodies).toContainEqual([
      'POST /api/v1/terminals/customers/assign-terminals',
      { customerUuid: CUSTOMER.uuid, serviceLineNumbers: [LINES[2], LINES[3], 'AST-999999-00000-00'] },
    ]);
    await waitFor(() => expect(input.value).toBe(''));
    expect(await within(dialog).findByText(ASSIGN_MESSAGES.assignedCount(3))).toBeTruthy();
    await waitFor(() => expect(usageCalls().length).toBeGreaterThan(usageBefore));
    await waitFor(() => expect(within(table()).getByText(LINES[2]!)).toBeTruthy());
  });

  it('keeps the text when nothing was assigned, and says "Please enter at least one service line number" for an empty box without calling the server', async () => {
    const { user, api } = openPage();
    await waitFor(() => expect(within(table()).getByText(LINES[0]!)).toBeTruthy(), { timeout: 5000 });
    await user.click(screen.getByRole('button', { name: ASSIGN_MESSAGES.button }));
    const dialog = await screen.findByRole('dialog', { name: ASSIGN_MESSAGES.title });
    await user.click(within(dialog).getByRole('button', { name: ASSIGN_MESSAGES.button }));
    expect(await within(dialog).findByText(ASSIGN_MESSAGES.empty)).toBeTruthy();
    expect(api.calls.some((c) => c.startsWith('POST /api/v1/terminals/customers/assign-terminals'))).toBe(false);

    const input = within(dialog).getByLabelText(ASSIGN_MESSAGES.inputLabel) as HTMLTextAreaElement;
    await user.click(input);
    await user.paste(LINES[3]!);
    await user.click(within(dialog).getByRole('button', { name: ASSIGN_MESSAGES.button }));
    expect(await within(dialog).findByText(ASSIGN_MESSAGES.failureTitle(1))).toBeTruthy();
    expect(input.value).toBe(LINES[3]);
  });

  it('unassigns a line after the confirmation: the server is told, the toast says so, the row goes and the cards are the server\'s new ones', async () => {
    const { user, api, usageQueries } = openPage();
    await waitFor(() => expect(within(table()).getByText(LINES[0]!)).toBeTruthy(), { timeout: 5000 });
    expect(cardValue('Total Terminals')).toBe('2');
    await user.click(screen.getByRole('button', { name: `${CUSTOMER_USAGE_MESSAGES.unassign} ${LINES[0]}` }));
    const confirm = await screen.findByText(CUSTOMER_USAGE_MESSAGES.unassignConfirm(LINES[0]!, CUSTOMER.name));
    const dialog = confirm.closest('[role="dialog"]') as HTMLElement;
    await user.click(within(dialog).getByRole('button', { name: CUSTOMER_USAGE_MESSAGES.unassign }));
    expect(await screen.findByText(CUSTOMER_USAGE_MESSAGES.unassigned(LINES[0]!))).toBeTruthy();
    expect(api.bodies).toContainEqual(['POST /api/v1/terminals/customers/unassign-terminal', { customerUuid: CUSTOMER.uuid, serviceLineNumber: LINES[0] }]);
    await waitFor(() => expect(within(table()).queryByText(LINES[0]!)).toBeNull());
    expect(shownLines()).toEqual([LINES[1]]);
    await waitFor(() => expect(cardValue('Total Terminals')).toBe('1'));
    expect(cardValue('Over Limit')).toBe('0');
    expect(usageQueries()).toEqual([
      { ...thisMonth(), ...firstPage },
      { ...thisMonth(), ...firstPage },
    ]);
  });

  it('clicking a row opens the Terminal Details dialog from the URL, with the row as the basic record when details fail', async () => {
    const { user, location } = openPage();
    await waitFor(() => expect(within(table()).getByText(LINES[1]!)).toBeTruthy(), { timeout: 5000 });
    await user.click(within(table()).getByText(LINES[1]!));
    await waitFor(() => expect(location()).toContain(`terminal=${terminalOf(LINES[1]!)}`));
    const dialog = await screen.findByRole('dialog', { name: TERMINAL_MESSAGES.detailTitle });
    expect(await within(dialog).findByText(TERMINAL_MESSAGES.basicInfoWarning)).toBeTruthy();
    expect(within(dialog).getAllByText(LINES[1]!).length).toBeGreaterThan(0);
    await user.click(within(dialog).getByRole('button', { name: /close/i }));
    await waitFor(() => expect(location()).not.toContain('terminal='));
  });

  it('a customer that cannot be loaded shows "Error Loading Customer" with the reason and no Assign Terminals', async () => {
    openPage(`/customer/terminals/${CUSTOMER.uuid}`, { customerStatus: 404 });
    expect(await screen.findByText(CUSTOMER_USAGE_MESSAGES.loadErrorTitle, {}, { timeout: 5000 })).toBeTruthy();
    expect(screen.getByText('Customer not found')).toBeTruthy();
    expect(screen.queryByRole('button', { name: ASSIGN_MESSAGES.button })).toBeNull();
  });

  it('the URL validator keeps one of the last twelve months (not the current one) and a terminal id, and drops the rest', () => {
    const now = new Date('2026-11-23T10:00:00.000Z');
    expect(validateCustomerTerminalsSearch({ month: '2026-3', terminal: 'UT-100001' }, now)).toEqual({ month: '2026-3', terminal: 'UT-100001' });
    expect(validateCustomerTerminalsSearch({ month: '2026-11' }, now)).toEqual({ month: undefined, terminal: undefined });
    expect(validateCustomerTerminalsSearch({ month: '2025-11', terminal: '../etc' }, now)).toEqual({ month: undefined, terminal: undefined });
    expect(validateCustomerTerminalsSearch({ month: '2025-12' }, now)).toEqual({ month: '2025-12', terminal: undefined });
  });
});
