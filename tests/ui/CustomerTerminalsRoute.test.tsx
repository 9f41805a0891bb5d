// A customer's terminals page through the whole client (composition root, router, session, the
// customerUsage and assignTerminals machines, the views) against a fake of the portal API at the
// fetch seam that keeps who holds which line, so assign and unassign change what it answers.
import { describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import { ASSIGN_MESSAGES, ASSIGN_REASONS, CUSTOMER_USAGE_MESSAGES, type TerminalUsageRecord } from '../../src/domain/customer-terminals';
import { lastTwelveMonths, TERMINAL_MESSAGES } from '../../src/domain/terminals';
import { validateCustomerTerminalsSearch } from '../../src/routes/search-params';
import { adminProfile } from '../machines/fixtures';
import { usageRecord } from '../fixtures/customer-terminals-client';
import { openSignedInAt } from './open-app';

const CUSTOMER = { uuid: '0b6f3c7e-1d2a-4e5f-8a9b-0c1d2e3f4a5b', name: 'Nina Park', company: 'Northwind Shipping', email: 'ops@northwind.example' };
const OTHER = 'Andes Copper';
const LINES = ['AST-100001-20000-11', 'AST-100002-20000-11', 'AST-100003-20000-11', 'AST-100004-20000-11'];
const terminalOf = (line: string) => `UT-${line.slice(4, 10)}`;

interface FakeOptions {
  customerStatus?: number;
}

function fakePortalApi({ customerStatus = 200 }: FakeOptions = {}) {
  // Lines 0 and 1 are the customer's; line 3 belongs to another customer; line 2 is free.
  const holder = new Map<string, string | null>([
    [LINES[0]!, CUSTOMER.uuid],
    [LINES[1]!, CUSTOMER.uuid],
    [LINES[2]!, null],
    [LINES[3]!, 'someone-else'],
  ]);
  const calls: string[] = [];
  const bodies: Array<[string, unknown]> = [];
  const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
  const ok = (data: unknown, message = 'ok') => json(200, { success: true, message, data });
  const fail = (status: number, message: string) => json(status, { success: false, message });
  const mine = () => LINES.filter((line) => holder.get(line) === CUSTOMER.uuid);

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
    if (call === `GET ${base}/usage`) {
      const records: TerminalUsageRecord[] = mine().map((line, i) =>
        usageRecord(i === 0 ? { used: 1200, total: 1000 } : { used: 200, total: 1000 }, { serviceLineNumber: line, terminalId: terminalOf(line) }),
      );
      return ok(records);
    }
    if (call === `GET ${base}/usage/daily`) return ok([{ date: url.searchParams.get('start_date'), priorityGB: 4.5, standardGB: 1.25 }]);
    if (call === `GET ${base}/terminals`) {
      return ok(mine().map((line) => ({ deviceId: terminalOf(line), serviceLine: line, status: 'Active', assignedTo: CUSTOMER.uuid, kitSerialNumber: 'KIT1', assignedAt: '2026-11-01T00:00:00.000Z' })));
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
  const usageCalls = () => api.calls.filter((c) => c.startsWith(`GET /api/v1/terminals/customers/${CUSTOMER.uuid}/usage?`));
  return { ...openSignedInAt(path, api.fetch), api, usageCalls };
}

const table = () => screen.getByRole('table', { name: 'Customer terminals' });
const pad = (n: number) => String(n).padStart(2, '0');

describe("a customer's terminals page", () => {
  it("loads the customer and this month's usage: the month's first and last UTC day go to the server", async () => {
    const { usageCalls } = openPage();
    expect(await screen.findByText(CUSTOMER.name, {}, { timeout: 5000 })).toBeTruthy();
    await waitFor(() => expect(within(table()).getByText(LINES[0]!)).toBeTruthy());
    expect(within(table()).getByText(LINES[1]!)).toBeTruthy();
    const now = new Date();
    const last = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 0)).getUTCDate();
    const month = `${now.getUTCFullYear()}-${pad(now.getUTCMonth() + 1)}`;
    expect(usageCalls()[0]).toBe(
      `GET /api/v1/terminals/customers/${CUSTOMER.uuid}/usage?billing_cycle_start=${month}-01&billing_cycle_end=${month}-${pad(last)}`,
    );
    // One of the two lines is over its priority data.
    const summary = screen.getByRole('group', { name: 'Usage summary' });
    expect(within(summary).getByText('Over Limit').closest('section')?.textContent).toContain('1');
  });

  it('a link with ?month= opens that month, and choosing another month puts it in the URL and asks for it', async () => {
    const months = lastTwelveMonths(new Date());
    const { user, location, usageCalls } = openPage(`/customer/terminals/${CUSTOMER.uuid}?month=${months[3]!.value}`);
    await screen.findByText(CUSTOMER.name, {}, { timeout: 5000 });
    await waitFor(() => expect(usageCalls().length).toBeGreaterThan(0));
    expect(usageCalls()[0]).toContain(`billing_cycle_start=${months[3]!.year}-${pad(months[3]!.month)}-01`);
    expect(usageCalls().every((c) => c.includes(`billing_cycle_start=${months[3]!.year}-${pad(months[3]!.month)}-01`))).toBe(true);

    await user.click(screen.getByRole('combobox', { name: 'Month' }));
    await user.click(await screen.findByRole('option', { name: months[1]!.label }));
    await waitFor(() => expect(location()).toContain(`month=${months[1]!.value}`));
    await waitFor(() => expect(usageCalls().at(-1)).toContain(`billing_cycle_start=${months[1]!.year}-${pad(months[1]!.month)}-01`));
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

  it('unassigns a line after the confirmation: the server is told, the toast says so and the row goes', async () => {
    const { user, api } = openPage();
    await waitFor(() => expect(within(table()).getByText(LINES[0]!)).toBeTruthy(), { timeout: 5000 });
    await user.click(screen.getByRole('button', { name: `${CUSTOMER_USAGE_MESSAGES.unassign} ${LINES[0]}` }));
    const confirm = await screen.findByText(CUSTOMER_USAGE_MESSAGES.unassignConfirm(LINES[0]!, CUSTOMER.name));
    const dialog = confirm.closest('[role="dialog"]') as HTMLElement;
    await user.click(within(dialog).getByRole('button', { name: CUSTOMER_USAGE_MESSAGES.unassign }));
    expect(await screen.findByText(CUSTOMER_USAGE_MESSAGES.unassigned(LINES[0]!))).toBeTruthy();
    expect(api.bodies).toContainEqual(['POST /api/v1/terminals/customers/unassign-terminal', { customerUuid: CUSTOMER.uuid, serviceLineNumber: LINES[0] }]);
    await waitFor(() => expect(within(table()).queryByText(LINES[0]!)).toBeNull());
    expect(within(table()).getByText(LINES[1]!)).toBeTruthy();
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
