// "View as customer" through the whole client: from a customer's row an administrator
// opens a read-only preview of the customer's area — the customer's own shell and pages, a banner,
// no actions — read through the admin preview routes only (never the customer's /my routes), and
// leaves it back to the customers list.
import { describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import type { MyOverviewWire, MyTerminalDetailWire, MyTerminalWire } from '../../src/domain/my-area';
import { PREVIEW_TEXTS } from '../../src/ui/my/PreviewBanner';
import { myPathOf, previewHref } from '../../src/routes/my/source';
import { customerFixture } from '../fixtures/customers';
import { openSignedInAt } from './open-app';
import { adminProfile } from '../machines/fixtures';

const CUSTOMER = customerFixture({ uuid: '11111111-2222-4333-8444-555555555555', name: 'Nadia Preview', company: 'Preview Shipping', email: 'nadia@preview.example' });
const base = `/api/v1/customers/${CUSTOMER.uuid}/preview`;

const terminal: MyTerminalWire = {
  terminalId: 'UT-PREVIEW-1',
  nickname: 'Harbour Office',
  serviceLineNumber: 'AST-PREVIEW-1',
  kitSerialNumber: 'KIT-PREVIEW-1',
  dishSerialNumber: 'DSH-PREVIEW-1',
  status: 'Active',
  lineEndDate: null,
  online: true,
  signalQuality: 88,
  uptimeSeconds: 7200,
  telemetryAt: '2026-03-18T10:29:50.000Z',
  alerts: [],
  planName: 'Local Priority 50 GB',
  usage: { usedGB: 20, planGB: 50, remainingGB: 30, overageGB: 0, percentage: 40 },
  billingCycle: { startDate: '2026-03-01', endDate: '2026-03-31' },
};
const overview: MyOverviewWire = {
  terminals: 1,
  onlineNow: 1,
  usage: { usedGB: 20, planGB: 50, remainingGB: 30, overageGB: 0, percentage: 40 },
  forecast: null,
  currency: 'USD',
  alerts: { count: 0, items: [] },
};
const detail: MyTerminalDetailWire = {
  terminal,
  month: '2026-03',
  months: ['2026-03', '2026-02'],
  daily: [{ date: '2026-03-01', priorityGB: 2, standardGB: 1 }],
  totals: { priorityGB: 2, standardGB: 1 },
  forecast: null,
  currency: 'USD',
};

function fakeApi() {
  const calls: string[] = [];
  const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
  const ok = (data: unknown) => json(200, { success: true, message: 'ok', data });
  const fetch = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), 'http://localhost');
    const method = init?.method ?? 'GET';
    calls.push(`${method} ${url.pathname}`);
    switch (`${method} ${url.pathname}`) {
      case 'GET /api/v1/auth/me':
        return ok({ user: adminProfile });
      case `POST ${base}`:
        return ok({ customer: CUSTOMER });
      case `GET ${base}/overview`:
        return ok(overview);
      case `GET ${base}/terminals`:
        return ok([terminal]);
      case `GET ${base}/terminals/${terminal.terminalId}`:
        return ok(detail);
      default:
        return json(404, { success: false, message: `No fake for ${method} ${url.pathname}` });
    }
  });
  return { fetch, calls };
}

describe('the admin preview of a customer area', () => {
  it("maps the customer area's paths into the preview and back", () => {
    expect(previewHref('abc', '/my/terminals/UT1?month=2026-03')).toBe('/customers/abc/preview/terminals/UT1?month=2026-03');
    expect(previewHref('abc', '/my')).toBe('/customers/abc/preview');
    expect(previewHref('abc', '/customers')).toBe('/customers');
    expect(previewHref('abc', '/mystery')).toBe('/mystery');
    expect(myPathOf('/customers/abc/preview/terminals')).toBe('/my/terminals');
    expect(myPathOf('/customers/abc/preview')).toBe('/my');
  });

  it("shows the customer's own shell and pages under a banner, read through the preview routes, with no actions", async () => {
    const api = fakeApi();
    const { user, location } = openSignedInAt(`/customers/${CUSTOMER.uuid}/preview`, api.fetch);

    const banner = await screen.findByRole('region', { name: 'Customer preview' });
    expect(within(banner).getByText(PREVIEW_TEXTS.title('Nadia Preview'))).toBeTruthy();
    expect(within(banner).getByText(PREVIEW_TEXTS.readOnly)).toBeTruthy();
    // The customer's menu, not the admin portal's.
    const nav = screen.getByRole('navigation');
    expect(within(nav).getByRole('link', { name: 'Requests' })).toBeTruthy();
    expect(within(nav).queryByRole('link', { name: 'Users' })).toBeNull();

    // The terminals page, then the terminal: the page's links stay inside the preview.
    await user.click(within(nav).getByRole('link', { name: 'Terminals' }));
    await waitFor(() => expect(location()).toBe(`/customers/${CUSTOMER.uuid}/preview/terminals`));
    await user.click(await screen.findByText('Harbour Office'));
    await waitFor(() => expect(location()).toBe(`/customers/${CUSTOMER.uuid}/preview/terminals/${terminal.terminalId}`));
    await screen.findByRole('heading', { level: 1, name: 'Harbour Office' });
    expect(screen.queryByRole('button', { name: 'Rename' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Reboot' })).toBeNull();

    // Opened (the audited call) before anything of the customer's is read — StrictMode starts the
    // page's actor twice, so twice here — and never through a customer route.
    const previewCalls = api.calls.filter((c) => c.includes(base));
    expect(previewCalls[0]).toBe(`POST ${base}`);
    expect(previewCalls.filter((c) => c.startsWith('POST'))).toEqual([`POST ${base}`, `POST ${base}`]);
    expect(api.calls.some((c) => c.includes('/api/v1/my/'))).toBe(false);

    await user.click(within(banner).getByRole('button', { name: PREVIEW_TEXTS.exit }));
    await waitFor(() => expect(location()).toBe('/customers'));
  });

  it('says so when the customer cannot be previewed', async () => {
    const api = fakeApi();
    openSignedInAt('/customers/99999999-2222-4333-8444-555555555555/preview', api.fetch);
    expect(await screen.findByText('Could not open the customer preview')).toBeTruthy();
  });
});
