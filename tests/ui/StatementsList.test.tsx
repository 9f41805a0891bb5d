// The Statements page (/billing/statements) through the whole client (router, session, list
// machine, view) over a fake portal API at the fetch seam, and a customer's statements on their
// page.
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { BILLING_MESSAGES } from '../../src/domain/billing';
import { CUSTOMER_STATEMENTS_TEXTS } from '../../src/ui/billing/statements/CustomerStatementsCard';
import { STATEMENT_TEXTS } from '../../src/ui/billing/statements/parts';
import { STATEMENTS_SEARCH_LABEL } from '../../src/ui/billing/statements/StatementsView';
import { customerFixture } from '../fixtures/customers';
import { STATEMENT_CUSTOMER, closedStatement, draftStatement, envelope, refusalBody, statementList, summaryOf, yenStatement } from '../fixtures/statements';
import { fakePortalApi, type FakeAnswer } from '../model/framework/screen';
import { openSignedInAt } from './open-app';
import { EXPORT_TEXTS } from '../../src/ui/common/ExportButton';
import { captureDownloads } from './downloads';
import { fill } from './fill';

const CSV = 'statement_number,statement_status,cycle\r\nST-2026-02-000042,closed,2026-02\r\n';
/** The yen statement part paid and not yet due (the dollar one is unpaid and long overdue). */
const partPaidYen = () => yenStatement({ dueOn: '2099-03-31', paidMinor: 5_000, amountDueMinor: 6_400, paymentStatus: 'part_paid' });

function openStatements(path = '/billing/statements', answers: Record<string, FakeAnswer> = {}, exportRefusal: { status: number; message: string } | null = null) {
  const listQueries: URLSearchParams[] = [];
  const exportQueries: URLSearchParams[] = [];
  const api = fakePortalApi({
    'GET /api/v1/billing/statements': ({ url }) => {
      listQueries.push(url.searchParams);
      return { body: envelope(statementList([closedStatement(), partPaidYen(), draftStatement()])) };
    },
    ...answers,
  });
  // The export answers a file, not an envelope: the fake portal answers JSON only.
  const fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), 'http://localhost');
    if (url.pathname !== '/api/v1/billing/statements/export.csv') return api.fetch(input, init);
    exportQueries.push(url.searchParams);
    const auth = new Headers(init?.headers).get('authorization');
    if (auth !== 'Bearer admin-token') return new Response(JSON.stringify(refusalBody('Authentication required')), { status: 401, headers: { 'content-type': 'application/json' } });
    if (exportRefusal) return new Response(JSON.stringify(refusalBody(exportRefusal.message)), { status: exportRefusal.status, headers: { 'content-type': 'application/json' } });
    const cycle = url.searchParams.get('cycle');
    return new Response(CSV, { status: 200, headers: { 'content-type': 'text/csv; charset=utf-8', 'content-disposition': `attachment; filename="statements-${cycle}.csv"` } });
  };
  const page = openSignedInAt(path, fetch);
  return { ...page, calls: api.calls, listQueries, exportQueries };
}

const table = () => within(screen.getByRole('table', { name: 'Statements' }));
/** The table once it shows, then the text in it. */
const findInTable = async (text: string) => within(await screen.findByRole('table', { name: 'Statements' })).findByText(text);
const findRoleInTable = async (role: string, options: { name: string }) => within(await screen.findByRole('table', { name: 'Statements' })).findByRole(role, options);
const totals = () => within(screen.getByRole('group', { name: 'Totals of the statements shown' }));
const lastQuery = (queries: URLSearchParams[]) => Object.fromEntries(queries.at(-1)!);


describe('Statements page', () => {
  it("opens on the newest cycle, lists each statement's figures in its own currency and the totals per currency above", async () => {
    const { location, listQueries } = openStatements();
    await waitFor(() => expect(location()).toBe('/billing/statements?cycle=2026-03'));
    await waitFor(() => expect(lastQuery(listQueries)).toMatchObject({ cycle: '2026-03' }));
    await findInTable('ST-2026-02-000042');
    // Subtotal, discount, corrections and total of the USD statement; the yen one without decimals.
    const usdRow = table().getByText('ST-2026-02-000042').closest('tr')!;
    expect(within(usdRow).getByText('USD 143.50')).toBeTruthy();
    expect(within(usdRow).getByText('USD -14.35')).toBeTruthy();
    expect(within(usdRow).getByText('USD -5.00')).toBeTruthy();
    expect(within(usdRow).getByText('USD 124.15')).toBeTruthy();
    expect(within(usdRow).getByText('Closed')).toBeTruthy();
    const yenRow = table().getByText('ST-2026-02-000043').closest('tr')!;
    expect(within(yenRow).getByText('JPY 11400')).toBeTruthy();
    // When each is due and whether it is paid: unpaid past its due date in the danger colour, and in words.
    expect(within(usdRow).getByText('Due Mar 31, 2026')).toBeTruthy();
    expect(within(usdRow).getByText('Unpaid, overdue').closest('.p-tag')!.className).toContain('p-tag-danger');
    expect(within(yenRow).getByText('Due Mar 31, 2099')).toBeTruthy();
    expect(within(yenRow).getByText('Part paid').closest('.p-tag')!.className).not.toContain('p-tag-danger');
    // A draft has no number yet.
    const draftRow = table().getByRole('link', { name: `Open statement Draft of ${STATEMENT_CUSTOMER.name}` }).closest('tr')!;
    expect(within(draftRow).getAllByText('USD 99.00')).toHaveLength(2);
    expect(within(draftRow).getAllByText('Draft')).toHaveLength(2);
    // The totals of the filter: 124.15 + 99.00 in dollars, the yen apart.
    expect(totals().getByText('USD 223.15')).toBeTruthy();
    expect(totals().getByText('2 statements')).toBeTruthy();
    expect(totals().getByText('JPY 11400')).toBeTruthy();
    expect(totals().getByText('1 statement')).toBeTruthy();
    expect(screen.getByRole('combobox', { name: 'Cycle' }).textContent).toContain('March 2026 (open)');
  });

  it('opens a statement from its number', async () => {
    const { user, location } = openStatements('/billing/statements?cycle=2026-02');
    await user.click(await findRoleInTable('link', { name: `Open statement ST-2026-02-000042 of ${STATEMENT_CUSTOMER.name}` }));
    await waitFor(() => expect(location()).toBe(`/billing/statements/${closedStatement().id}`));
  });

  it('keeps the cycle, status, search and customer in the URL and asks the server for them', async () => {
    const { user, location, listQueries } = openStatements(`/billing/statements?cycle=2026-02&customer=${STATEMENT_CUSTOMER.uuid}`);
    await findInTable('ST-2026-02-000042');
    expect(lastQuery(listQueries)).toEqual({ cycle: '2026-02', customer: STATEMENT_CUSTOMER.uuid, page: '1', limit: '25' });
    expect(screen.getByText(/Only the statements of/).textContent).toContain(STATEMENT_CUSTOMER.name);

    await user.click(screen.getByRole('combobox', { name: 'Cycle' }));
    await user.click(await screen.findByRole('option', { name: 'January 2026' }));
    await waitFor(() => expect(location()).toBe(`/billing/statements?cycle=2026-01&customer=${STATEMENT_CUSTOMER.uuid}`));
    await waitFor(() => expect(lastQuery(listQueries)).toMatchObject({ cycle: '2026-01', customer: STATEMENT_CUSTOMER.uuid }));

    await user.click((screen.getByLabelText('Status filter') as HTMLElement).closest('.p-dropdown')!);
    await user.click(within(await screen.findByRole('listbox')).getByRole('option', { name: 'Closed' }));
    await waitFor(() => expect(location()).toBe(`/billing/statements?cycle=2026-01&status=closed&customer=${STATEMENT_CUSTOMER.uuid}`));
    await waitFor(() => expect(lastQuery(listQueries)).toMatchObject({ cycle: '2026-01', status: 'closed', customer: STATEMENT_CUSTOMER.uuid }));

    await fill(user, screen.getByRole('searchbox', { name: STATEMENTS_SEARCH_LABEL }), 'north');
    await waitFor(() => expect(location()).toContain('search=north'));
    await waitFor(() => expect(lastQuery(listQueries)).toMatchObject({ search: 'north', status: 'closed', cycle: '2026-01' }));

    await user.click(screen.getByRole('button', { name: 'Show every customer' }));
    await waitFor(() => expect(location()).toBe('/billing/statements?cycle=2026-01&status=closed&search=north'));
    await waitFor(() => expect(lastQuery(listQueries).customer).toBeUndefined());
  });

  it('pages through the server: Page 2 asks for page 2 and keeps the filter', async () => {
    const { user, location, listQueries } = openStatements('/billing/statements?cycle=2026-02&status=closed', {
      'GET /api/v1/billing/statements': ({ url }) => {
        listQueries.push(url.searchParams);
        const page = Number(url.searchParams.get('page') ?? 1);
        const rows = page === 2 ? [yenStatement()] : [closedStatement()];
        return { body: envelope(statementList(rows, { total: 30, page })) };
      },
    });
    await findInTable('ST-2026-02-000042');
    await user.click(screen.getByRole('button', { name: 'Page 2' }));
    await findInTable('ST-2026-02-000043');
    expect(table().queryByText('ST-2026-02-000042')).toBeNull();
    expect(location()).toBe('/billing/statements?cycle=2026-02&status=closed&page=2');
    expect(lastQuery(listQueries)).toMatchObject({ cycle: '2026-02', status: 'closed', page: '2' });
  });

  it("exports the CSV of the filter shown, with the session's token, under the server's file name", async () => {
    const saved = captureDownloads();
    const { user, exportQueries } = openStatements(`/billing/statements?cycle=2026-02&status=closed&search=north&customer=${STATEMENT_CUSTOMER.uuid}&page=2`);
    await findInTable('ST-2026-02-000042');
    await user.click(screen.getByRole('button', { name: EXPORT_TEXTS.exportCsv }));
    await waitFor(() => expect(saved).toHaveLength(1));
    // Every statement of the filter: no page, no limit.
    expect(Object.fromEntries(exportQueries[0]!)).toEqual({ cycle: '2026-02', status: 'closed', search: 'north', customer: STATEMENT_CUSTOMER.uuid });
    expect(saved[0]!.name).toBe('statements-2026-02.csv');
    expect(await saved[0]!.blob.text()).toBe(CSV);
    expect((screen.getByRole('button', { name: EXPORT_TEXTS.exportCsv }) as HTMLButtonElement).disabled).toBe(false);
  });

  it('says why an export was refused and saves nothing', async () => {
    const saved = captureDownloads();
    const { user } = openStatements('/billing/statements?cycle=2026-02', {}, { status: 400, message: BILLING_MESSAGES.cycleInvalid });
    await findInTable('ST-2026-02-000042');
    await user.click(screen.getByRole('button', { name: EXPORT_TEXTS.exportCsv }));
    await screen.findByText(BILLING_MESSAGES.cycleInvalid);
    expect(saved).toHaveLength(0);
    await waitFor(() => expect((screen.getByRole('button', { name: EXPORT_TEXTS.exportCsv }) as HTMLButtonElement).disabled).toBe(false));
  });

  it('shows a failed load with Try Again', async () => {
    openStatements('/billing/statements?cycle=2026-02', { 'GET /api/v1/billing/statements': { status: 500, body: refusalBody('Database unavailable') } });
    expect(await screen.findByText('Database unavailable')).toBeTruthy();
    expect(screen.getByText(STATEMENT_TEXTS.loadFailed)).toBeTruthy();
    expect(screen.getByRole('button', { name: /try again/i })).toBeTruthy();
  });
});

describe("a customer's statements on their page", () => {
  it('lists them newest first, links each to its statement and the Statements page to the customer', async () => {
    const customer = customerFixture({ uuid: STATEMENT_CUSTOMER.uuid });
    const api = fakePortalApi({
      [`GET /api/v1/customers/${customer.uuid}`]: { body: envelope({ customer }) },
      [`GET /api/v1/customers/${customer.uuid}/statements`]: { body: envelope([summaryOf(closedStatement()), summaryOf(draftStatement())]) },
      'GET /api/v1/billing/statements': { body: envelope(statementList([closedStatement()])) },
    });
    const { user, location } = openSignedInAt(`/customer/terminals/${customer.uuid}`, api.fetch);
    const section = within(await screen.findByRole('region', { name: CUSTOMER_STATEMENTS_TEXTS.title }));
    const items = await section.findAllByRole('listitem');
    expect(items.map((li) => li.textContent)).toEqual(['DraftMarch 2026USD 99.00Draft', 'ST-2026-02-000042February 2026USD 124.15Closed']);
    expect(section.getByRole('link', { name: 'ST-2026-02-000042' }).getAttribute('href')).toBe(`/billing/statements/${closedStatement().id}`);
    await user.click(section.getByRole('link', { name: CUSTOMER_STATEMENTS_TEXTS.all }));
    await waitFor(() => expect(location()).toBe(`/billing/statements?cycle=2026-03&customer=${customer.uuid}`));
  });
});
