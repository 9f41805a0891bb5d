// Export CSV on each list page, through the whole client (router, session, list machines, views)
// over a fake portal API at the fetch seam: one table of pages and one loop over it. Opened with a
// filter in the address, each page asks the server for its list; Export CSV then asks for the
// CSV of that very filter (the list's query without its paging), with the bearer token, and hands
// the browser the file under the name the server gave it.
import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { customerFixture } from '../fixtures/customers';
import { fakePortalApi, type FakeAnswer } from '../model/framework/screen';
import { EXPORT_TEXTS } from '../../src/ui/common/ExportButton';
import { openSignedInAt } from './open-app';
import { captureDownloads } from './downloads';

const CUSTOMER = customerFixture({ uuid: '7c9e6679-7425-40de-944b-e07fc1f90ae7', name: 'Acme North', company: 'Acme' });
const pagination = { total: 0, page: 1, limit: 25, pages: 0 };
const ok = (data: unknown) => ({ body: { success: true, message: 'ok', data } });

interface ListPage {
  name: string;
  /** The page, opened with a filter in its address. */
  path: string;
  list: string;
  exportPath: string;
  answers: Record<string, FakeAnswer>;
  /** What the page's list asks for beyond the address (typed into the page), if anything. */
  act?: (user: ReturnType<typeof openSignedInAt>['user']) => Promise<void>;
  /** The filter the list request must carry before the export is asked for. */
  filter: Record<string, string>;
}

const PAGES: ListPage[] = [
  {
    name: 'customers',
    path: '/customers?search=acme&status=active',
    list: '/api/v1/customers',
    exportPath: '/api/v1/customers/export.csv',
    answers: { 'GET /api/v1/customers': ok({ customers: [], pagination }) },
    filter: { search: 'acme', status: 'active' },
  },
  {
    name: 'terminals',
    path: '/terminals?search=KIT&status=inactive',
    list: '/api/v1/terminals',
    exportPath: '/api/v1/terminals/export.csv',
    answers: { 'GET /api/v1/terminals': ok({ results: [], totalCount: 0, page: 1, limit: 25 }) },
    filter: { search: 'KIT', active: 'false' },
  },
  {
    name: 'subscriptions',
    path: '/subscription?search=ast&plan=1tb&over=true',
    list: '/api/v1/subscriptions',
    exportPath: '/api/v1/subscriptions/export.csv',
    answers: {
      'GET /api/v1/subscriptions': ok({ subscriptions: [], pagination, summary: { totalTerminals: 0, plans50GB: 0, plans1TB: 0, overageTerminals: 0, totalOverageGB: 0 } }),
    },
    filter: { search: 'ast', plan: '1tb', over_plan: 'true' },
  },
  {
    name: 'users',
    path: '/users?search=ops&status=inactive&deleted=true',
    list: '/api/v1/users',
    exportPath: '/api/v1/users/export.csv',
    answers: { 'GET /api/v1/users': ok({ users: [], pagination, stats: { total: 0, active: 0, mfaEnabled: 0 } }) },
    filter: { search: 'ops', is_active: 'false', include_deleted: 'true' },
  },
  {
    name: "a customer's usage",
    path: `/customer/terminals/${CUSTOMER.uuid}?month=2026-2`,
    list: `/api/v1/terminals/customers/${CUSTOMER.uuid}/usage/page`,
    exportPath: `/api/v1/terminals/customers/${CUSTOMER.uuid}/usage/export.csv`,
    answers: {
      [`GET /api/v1/customers/${CUSTOMER.uuid}`]: ok({ customer: CUSTOMER }),
      [`GET /api/v1/terminals/customers/${CUSTOMER.uuid}/usage/page`]: ok({
        records: [],
        pagination,
        summary: { totalTerminals: 0, activeTerminals: 0, totalDataUsed: 0, overLimit: 0 },
      }),
      [`GET /api/v1/terminals/customers/${CUSTOMER.uuid}/usage/daily`]: ok([]),
      [`GET /api/v1/customers/${CUSTOMER.uuid}/statements`]: ok([]),
    },
    act: async (user) => user.type(await screen.findByRole('searchbox', { name: 'Search terminals' }), 'AST'),
    filter: { billing_cycle_start: '2026-02-01', billing_cycle_end: '2026-02-28', search: 'AST' },
  },
  {
    name: 'alerts',
    path: '/alerts?status=all&kind=usage&severity=critical&search=AST',
    list: '/api/v1/alerts',
    exportPath: '/api/v1/alerts/export.csv',
    answers: { 'GET /api/v1/alerts': ok({ alerts: [], pagination, counts: { open: 0, acknowledged: 0, resolved: 0 } }) },
    filter: { status: 'all', kind: 'usage', severity: 'critical', search: 'AST' },
  },
];


function openList(page: ListPage) {
  const listQueries: Record<string, string>[] = [];
  const exports: Array<{ query: Record<string, string>; authorization: string | null }> = [];
  const api = fakePortalApi(page.answers);
  const fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), 'http://localhost');
    // The stat cards of some pages read the unfiltered list's first row: not the table's request.
    if (url.pathname === page.list && url.searchParams.get('limit') !== '1') listQueries.push(Object.fromEntries(url.searchParams));
    if (url.pathname !== page.exportPath) return api.fetch(input, init);
    // The export answers a file, not an envelope.
    exports.push({ query: Object.fromEntries(url.searchParams), authorization: new Headers(init?.headers).get('authorization') });
    return new Response('Header\r\nrow\r\n', { status: 200, headers: { 'content-type': 'text/csv; charset=utf-8', 'content-disposition': 'attachment; filename="list-2026-03-02.csv"' } });
  };
  return { ...openSignedInAt(page.path, fetch), listQueries, exports };
}

const withoutPaging = ({ page: _page, limit: _limit, ...filter }: Record<string, string>) => filter;

describe.each(PAGES)('Export CSV on the $name page', (page) => {
  it("asks for the CSV of the list's current filter, without its paging, and saves the file", async () => {
    const saved = captureDownloads();
    const { user, listQueries, exports } = openList(page);
    await page.act?.(user);
    await waitFor(() => expect(listQueries.at(-1)).toMatchObject(page.filter));
    await user.click(await screen.findByRole('button', { name: EXPORT_TEXTS.exportCsv }));
    await waitFor(() => expect(exports).toHaveLength(1));
    expect(exports[0]!.query).toEqual(withoutPaging(listQueries.at(-1)!));
    expect(exports[0]!.authorization).toBe('Bearer admin-token');
    await waitFor(() => expect(saved.map((file) => file.name)).toEqual(['list-2026-03-02.csv']));
    expect(await saved[0]!.blob.text()).toBe('Header\r\nrow\r\n');
    await waitFor(() => expect((screen.getByRole('button', { name: EXPORT_TEXTS.exportCsv }) as HTMLButtonElement).disabled).toBe(false));
  });
});
