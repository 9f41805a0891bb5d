// The audit log page (/audit) through the whole client (router, session, list machine, view) over
// a fake portal API at the fetch seam: the table, a row opened to its before and after with the
// changed fields marked, every filter kept in the URL and sent to the server, the export of the
// filter, the guard that keeps portal users without the admin role out, and a failed load.
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AUDIT_MESSAGES, type AuditEntryWire } from '../../src/domain/audit';
import type { AdminUser } from '../../src/domain/auth';
import { AUDIT_CHANGES_TEXTS } from '../../src/ui/audit/AuditChanges';
import { AUDIT_TEXTS } from '../../src/ui/audit/AuditLogView';
import { EXPORT_TEXTS } from '../../src/ui/common/ExportButton';
import { adminProfile, userProfile } from '../machines/fixtures';
import { NO_PERMISSION_TEXTS } from '../../src/ui/common/NoPermission';
import { fakePortalApi, type FakeAnswer } from '../model/framework/screen';
import { openSignedInAt } from './open-app';
import { captureDownloads } from './downloads';
import { fill } from './fill';

const CUSTOMER_ID = '5d53f648-308d-4d2d-8c11-aaaaaaaaaaaa';
const updated: AuditEntryWire = {
  id: '812',
  createdAt: '2026-03-02T09:01:00.000Z',
  action: 'customer.updated',
  actor: { kind: 'user', id: adminProfile.uuid, name: 'Ana Lima', email: adminProfile.email },
  target: { type: 'customer', id: CUSTOMER_ID },
  before: { email: 'cora@example.com', name: 'Cora Customer', company: 'Acme' },
  after: { email: 'cora@example.com', name: 'Cora Renamed', phone: '+1 555' },
  ip: '203.0.113.9',
  requestId: 'req-77',
};
const seeded: AuditEntryWire = {
  id: '3',
  createdAt: '2026-01-11T00:00:00.000Z',
  action: 'system.demo_seeded',
  actor: { kind: 'system', id: null, name: null, email: null },
  target: { type: null, id: null },
  before: null,
  after: { users: 48 },
  ip: null,
  requestId: null,
};
const legacy: AuditEntryWire = { ...seeded, id: '2', action: 'legacy.thing', after: null };

const list = (entries: AuditEntryWire[], total = entries.length) => ({ success: true, message: 'ok', data: { entries, pagination: { total, page: 1, limit: 25, pages: Math.ceil(total / 25) } } });

function openAudit(path = '/audit', answers: Record<string, FakeAnswer> = {}, profile: AdminUser = adminProfile) {
  const listQueries: Record<string, string>[] = [];
  const exportQueries: Record<string, string>[] = [];
  const api = fakePortalApi(
    {
      'GET /api/v1/audit': ({ url }) => {
        listQueries.push(Object.fromEntries(url.searchParams));
        return { body: list([updated, seeded, legacy]) };
      },
      'GET /api/v1/alerts/bell': { body: { success: true, message: 'ok', data: { unread: 0, open: 0, latest: [] } } },
      ...answers,
    },
    profile,
  );
  // The export answers a file, not an envelope: the fake portal answers JSON only.
  const fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), 'http://localhost');
    if (url.pathname !== '/api/v1/audit/export.csv') return api.fetch(input, init);
    exportQueries.push(Object.fromEntries(url.searchParams));
    return new Response('Time (UTC),Action\r\n', { status: 200, headers: { 'content-type': 'text/csv; charset=utf-8', 'content-disposition': 'attachment; filename="audit-log-2026-03-02.csv"' } });
  };
  const page = openSignedInAt(path, fetch, { profile });
  return { ...page, calls: api.calls, listQueries, exportQueries };
}

const table = () => within(screen.getByRole('table', { name: AUDIT_MESSAGES.pageTitle }));

afterEach(() => {
  vi.restoreAllMocks();
});

describe('Audit log page', () => {
  it('lists time, actor, action label and target, and opens a row to its before and after with the changed fields marked', async () => {
    const { user, location } = openAudit();
    await screen.findByText('Customer changed');
    const row = table().getByText('Customer changed').closest('tr')!;
    expect(within(row).getByText('2026-03-02 09:01:00Z')).toBeTruthy();
    expect(within(row).getByText('Ana Lima')).toBeTruthy();
    expect(within(row).getByText(adminProfile.email)).toBeTruthy();
    expect(within(row).getByText('customer.updated')).toBeTruthy();
    expect(within(row).getByText(CUSTOMER_ID)).toBeTruthy();
    expect(within(row).getByText('3 changed')).toBeTruthy();
    expect(table().getAllByText('System').length).toBeGreaterThan(0);
    // An action no longer written shows its stored name.
    expect(table().getByText('legacy.thing', { selector: 'span' })).toBeTruthy();

    await user.click(within(row).getByRole('button', { name: AUDIT_TEXTS.showChanges('Customer changed') }));
    await waitFor(() => expect(location()).toBe('/audit?entry=812'));
    const changes = within(await screen.findByRole('table', { name: AUDIT_CHANGES_TEXTS.title('812') }));
    const fieldRow = (field: string) => changes.getByRole('rowheader', { name: new RegExp(`^${field}`) }).closest('tr')!;
    expect(within(fieldRow('name')).getByText('Cora Customer')).toBeTruthy();
    expect(within(fieldRow('name')).getByText('Cora Renamed')).toBeTruthy();
    expect(fieldRow('name').textContent).toContain('(changed)');
    expect(fieldRow('email').textContent).not.toContain('(changed)');
    expect(within(fieldRow('company')).getByText(AUDIT_CHANGES_TEXTS.absent)).toBeTruthy();
    expect(fieldRow('phone').textContent).toContain('(changed)');
    expect(screen.getByText('IP 203.0.113.9')).toBeTruthy();

    await user.click(screen.getByRole('button', { name: AUDIT_TEXTS.hideChanges('Customer changed') }));
    await waitFor(() => expect(location()).toBe('/audit'));
    expect(screen.queryByRole('table', { name: AUDIT_CHANGES_TEXTS.title('812') })).toBeNull();
  });

  it('opens the entry a link names', async () => {
    openAudit('/audit?entry=812');
    expect(await screen.findByRole('table', { name: AUDIT_CHANGES_TEXTS.title('812') })).toBeTruthy();
  });

  it('keeps actor, kind, actions, target and days in the URL and asks the server for them', async () => {
    const { user, location, listQueries } = openAudit();
    await screen.findByText('Customer changed');
    expect(listQueries.at(-1)).toEqual({ page: '1', limit: '25' });

    await fill(user, screen.getByRole('searchbox', { name: AUDIT_TEXTS.searchLabel }), 'ana');
    await waitFor(() => expect(location()).toBe('/audit?actor=ana'));
    await waitFor(() => expect(listQueries.at(-1)).toMatchObject({ actor: 'ana' }));

    await user.click((screen.getByLabelText(AUDIT_TEXTS.kindLabel) as HTMLElement).closest('.p-dropdown')!);
    await user.click(within(await screen.findByRole('listbox')).getByRole('option', { name: 'Portal user' }));
    await waitFor(() => expect(location()).toBe('/audit?actor=ana&kind=user'));
    await waitFor(() => expect(listQueries.at(-1)).toMatchObject({ actor: 'ana', actorKind: 'user' }));

    await fill(user, screen.getByLabelText(AUDIT_TEXTS.targetTypeLabel), 'customer');
    await fill(user, screen.getByLabelText(AUDIT_TEXTS.targetIdLabel), '5d53');
    await user.keyboard('{Enter}');
    await waitFor(() => expect(location()).toBe('/audit?actor=ana&kind=user&targetType=customer&targetId=5d53'));
    await waitFor(() => expect(listQueries.at(-1)).toMatchObject({ targetType: 'customer', targetId: '5d53' }));

    await fill(user, screen.getByLabelText(AUDIT_TEXTS.fromLabel), '2026-03-01');
    await waitFor(() => expect(location()).toContain('from=2026-03-01'));
    await waitFor(() => expect(listQueries.at(-1)).toMatchObject({ from: '2026-03-01', actor: 'ana', targetId: '5d53' }));

    await user.click(screen.getByRole('button', { name: AUDIT_TEXTS.clearFilters }));
    await waitFor(() => expect(location()).toBe('/audit'));
    await waitFor(() => expect(listQueries.at(-1)).toEqual({ page: '1', limit: '25' }));
    expect((screen.getByRole('searchbox', { name: AUDIT_TEXTS.searchLabel }) as HTMLInputElement).value).toBe('');
    expect((screen.getByLabelText(AUDIT_TEXTS.targetTypeLabel) as HTMLInputElement).value).toBe('');
  });

  it('filters by several actions chosen from the list, comma-separated on the wire', async () => {
    const { user, location, listQueries } = openAudit();
    await screen.findByText('Customer changed');
    await user.click(screen.getByText(AUDIT_TEXTS.actionsPlaceholder));
    const panel = within(await screen.findByRole('listbox'));
    await user.click(panel.getByRole('option', { name: 'Customer blocked' }));
    await waitFor(() => expect(location()).toBe('/audit?action=customer.blocked'));
    await user.click(within(await screen.findByRole('listbox')).getByRole('option', { name: 'Customer changed' }));
    await waitFor(() => expect(location()).toBe(`/audit?action=${encodeURIComponent('customer.blocked,customer.updated')}`));
    await waitFor(() => expect(listQueries.at(-1)).toMatchObject({ action: 'customer.blocked,customer.updated' }));
  });

  it('reads a URL with unknown actions or a backwards range as the nearest valid filter', async () => {
    const { listQueries } = openAudit('/audit?action=customer.updated,bogus.thing&from=2026-03-05&to=2026-03-01&kind=robot');
    await screen.findByText('Customer changed');
    expect(listQueries.at(-1)).toEqual({ action: 'customer.updated', from: '2026-03-01', to: '2026-03-05', page: '1', limit: '25' });
  });

  it('exports the filter shown as CSV', async () => {
    const saved = captureDownloads();
    const { user, exportQueries } = openAudit('/audit?actor=ana&action=customer.updated&page=2');
    await screen.findByText('Customer changed');
    await user.click(screen.getByRole('button', { name: EXPORT_TEXTS.exportCsv }));
    await waitFor(() => expect(saved.map((file) => file.name)).toEqual(['audit-log-2026-03-02.csv']));
    expect(exportQueries).toEqual([{ actor: 'ana', action: 'customer.updated' }]);
  });

  it('tells a portal user whose roles do not read the audit log that they may not, and asks for nothing', async () => {
    const { location, listQueries } = openAudit('/audit', {}, userProfile);
    expect(await screen.findByText(NO_PERMISSION_TEXTS.title)).toBeTruthy();
    expect(screen.getByRole('heading', { level: 1, name: 'Audit log' })).toBeTruthy();
    expect(location()).toBe('/audit');
    expect(listQueries).toEqual([]);
  });

  it("shows a failed load with the server's words and Try Again", async () => {
    const { user, calls } = openAudit('/audit', { 'GET /api/v1/audit': { status: 403, body: { success: false, message: 'Only administrators may do this' } } });
    expect(await screen.findByText('Only administrators may do this')).toBeTruthy();
    const before = calls.filter((c) => c.startsWith('GET /api/v1/audit')).length;
    await user.click(screen.getByRole('button', { name: /try again/i }));
    await waitFor(() => expect(calls.filter((c) => c.startsWith('GET /api/v1/audit')).length).toBeGreaterThan(before));
  });
});
