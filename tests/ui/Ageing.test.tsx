// Billing → Ageing through the whole client (composition root, router, session, the ageing list,
// the dunning policy form machine) over a fake portal API at the fetch seam: the buckets per
// currency and per customer, the filter and its CSV, the dunning policy saved, and the dunning
// run at once (the dunning run machine).
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { AdminUser } from '../../src/domain/auth';
import { LEDGER_MESSAGES } from '../../src/domain/ledger';
import { AGEING_TEXTS as T } from '../../src/ui/billing/ageing/parts';
import { EXPORT_TEXTS } from '../../src/ui/common/ExportButton';
import { adminProfile, profileWith } from '../machines/fixtures';
import { envelope, refusal } from '../fixtures/alerts';
import { ACME_ID, ageingRow, ageingWire, borealisAgeing, dunningReport, storedPolicy } from '../fixtures/ledger';
import { fakePortalApi, type FakeAnswer } from '../model/framework/screen';
import { captureDownloads } from './downloads';
import { fill } from './fill';
import { openSignedInAt } from './open-app';

function openAgeing(answers: Record<string, FakeAnswer> = {}, profile: AdminUser = adminProfile) {
  const exports: string[] = [];
  const api = fakePortalApi(
    {
      'GET /api/v1/billing/ageing': ({ url }) =>
        url.searchParams.get('currency') === 'EUR' ? { body: envelope(ageingWire({ rows: [borealisAgeing], totals: ageingWire().totals.slice(0, 1) })) } : { body: envelope(ageingWire()) },
      'GET /api/v1/billing/dunning-policy': { body: envelope(storedPolicy()) },
      ...answers,
    },
    profile,
  );
  const fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), 'http://localhost');
    if (url.pathname !== '/api/v1/billing/ageing/export.csv') return api.fetch(input, init);
    exports.push(url.search);
    return new Response('customer,currency\r\nBorealis Fisheries,EUR\r\n', { status: 200, headers: { 'content-type': 'text/csv', 'content-disposition': 'attachment; filename="ageing-2026-04-10.csv"' } });
  };
  return { ...openSignedInAt('/billing/ageing', fetch, { profile }), calls: api.calls, exports };
}

const table = async (name: string) => within(await screen.findByRole('table', { name }));
const rowOf = (rows: ReturnType<typeof within>, text: string) => within(rows.getByText(text).closest('tr') as HTMLElement);
const policy = () => within(screen.getByRole('form', { name: T.policyTitle }));

describe('Ageing page', () => {
  it('shows the buckets per currency and per customer, with the customer’s tags and a link to their page', async () => {
    openAgeing();
    const totals = await table(T.totalsTable);
    const usd = rowOf(totals, 'USD');
    expect(['USD 0.00', 'USD 99.00', 'USD 120.00', 'USD 219.00'].every((figure) => usd.queryAllByText(figure).length > 0)).toBe(true);
    const headers = totals.getAllByRole('columnheader').map((h) => h.textContent);
    expect(headers).toEqual(['Currency', 'Current', '1\u201330 days', '31\u201360 days', '61\u201390 days', '90+ days', 'Total', 'Customers']);

    const rows = await table(T.rowsTable);
    const acme = rowOf(rows, 'Acme Maritime');
    expect(acme.getByText(T.blocked)).toBeTruthy();
    expect(acme.getByText('2026-03-01')).toBeTruthy();
    expect(acme.getByText('USD 219.00')).toBeTruthy();
    expect(acme.getByRole('link', { name: 'Acme Maritime' }).getAttribute('href')).toBe(`/customer/terminals/${ACME_ID}`);
    const borealis = rowOf(rows, 'Borealis Fisheries');
    expect(borealis.getByText(T.promisedUntil('2026-04-30'))).toBeTruthy();
    expect(borealis.getByText('EUR 15.00')).toBeTruthy();
    expect(borealis.queryByText(T.blocked)).toBeNull();
    expect(screen.getByText(T.asOf('2026-04-10'))).toBeTruthy();
  });

  it('narrows to a currency and exports the CSV of that choice', async () => {
    const saved = captureDownloads();
    const { user, calls, exports } = openAgeing();
    await table(T.rowsTable);
    await user.click((screen.getByLabelText(T.currencyFilter) as HTMLElement).closest('.p-dropdown')!);
    await user.click(await screen.findByRole('option', { name: 'EUR' }));
    await waitFor(() => expect(calls.filter((c) => c.startsWith('GET /api/v1/billing/ageing')).at(-1)).toBe('GET /api/v1/billing/ageing?currency=EUR'));
    await waitFor(() => expect(screen.queryByText('Acme Maritime')).toBeNull());
    await user.click(screen.getByRole('button', { name: EXPORT_TEXTS.exportCsv }));
    await waitFor(() => expect(saved.map((file) => file.name)).toEqual(['ageing-2026-04-10.csv']));
    expect(exports).toEqual(['?currency=EUR']);
  });

  it('saves the dunning policy as changed, and shows the server’s refusal above it', async () => {
    const message = 'Validation failed: reminderDays must be up to 3 whole numbers of days from 1 to 365';
    const sent: unknown[] = [];
    const { user } = openAgeing({
      'PUT /api/v1/billing/dunning-policy': ({ body }) => {
        sent.push(body);
        if (sent.length === 1) return { status: 400, body: refusal(message) };
        return { body: envelope({ ...(body as object), updatedAt: '2026-04-10T12:00:00.000Z' }, LEDGER_MESSAGES.policySaved) };
      },
    });
    await screen.findByRole('form', { name: T.policyTitle });
    expect((policy().getByLabelText(T.reminder(1)) as HTMLInputElement).value).toBe('7');
    await fill(user, policy().getByLabelText(T.reminder(2)), '14');
    await user.click(policy().getByRole('checkbox', { name: T.proposeLineEnds }));
    await user.click(policy().getByRole('button', { name: T.save }));
    expect(await policy().findByText(message)).toBeTruthy();

    await user.click(policy().getByRole('button', { name: T.save }));
    expect(await screen.findByText(LEDGER_MESSAGES.policySaved)).toBeTruthy();
    expect(policy().queryByText(message)).toBeNull();
    expect(sent).toEqual([
      { enabled: true, reminderDays: [7, 14], finalNoticeDays: 21, blockDays: 30, proposeLineEnds: true },
      { enabled: true, reminderDays: [7, 14], finalNoticeDays: 21, blockDays: 30, proposeLineEnds: true },
    ]);
  });

  it('refuses days out of order on the page and sends nothing', async () => {
    const { user, calls } = openAgeing();
    await screen.findByRole('form', { name: T.policyTitle });
    const block = policy().getByLabelText(T.block);
    await user.clear(block);
    await fill(user, block, '10');
    await user.click(policy().getByRole('button', { name: T.save }));
    expect(await policy().findByText(LEDGER_MESSAGES.policyOrder)).toBeTruthy();
    expect(calls.filter((c) => c.startsWith('PUT '))).toEqual([]);
  });

  it('shows a reader the policy without Save or Run dunning now', async () => {
    openAgeing({}, profileWith(['billing:read']));
    await screen.findByRole('form', { name: T.policyTitle });
    expect((policy().getByLabelText(T.block) as HTMLInputElement).disabled).toBe(true);
    expect(policy().queryByRole('button', { name: T.save })).toBeNull();
    expect(policy().queryByRole('button', { name: T.runNow })).toBeNull();
    expect(policy().queryByText(T.runHint)).toBeNull();
    expect(policy().getByText(T.readOnly)).toBeTruthy();
  });

  it('runs the dunning now: the server’s words in a toast, and the ageing read again shows Borealis blocked', async () => {
    const message = LEDGER_MESSAGES.dunningRan(dunningReport({ blocked: 1 }));
    let blocked = false;
    const { user, calls } = openAgeing({
      'GET /api/v1/billing/ageing': () => ({ body: envelope(blocked ? ageingWire({ rows: [ageingRow(), { ...borealisAgeing, blockedForNonPayment: true }] }) : ageingWire()) }),
      'POST /api/v1/billing/dunning-policy/run': () => {
        blocked = true;
        return { body: envelope(dunningReport({ blocked: 1 }), message) };
      },
    });
    const rows = await table(T.rowsTable);
    expect(rowOf(rows, 'Borealis Fisheries').queryByText(T.blocked)).toBeNull();
    const reads = calls.filter((c) => c.startsWith('GET /api/v1/billing/ageing')).length;
    expect(policy().getByText(T.runHint)).toBeTruthy();

    await user.click(policy().getByRole('button', { name: T.runNow }));
    expect(await screen.findByText(message)).toBeTruthy();
    expect(calls.filter((c) => c === 'POST /api/v1/billing/dunning-policy/run')).toHaveLength(1);
    await waitFor(() => expect(calls.filter((c) => c.startsWith('GET /api/v1/billing/ageing')).length).toBe(reads + 1));
    await waitFor(() => expect(rowOf(rows, 'Borealis Fisheries').getByText(T.blocked)).toBeTruthy());
    expect((policy().getByRole('button', { name: T.runNow }) as HTMLButtonElement).disabled).toBe(false);
  });

  it('shows the server’s refusal of a run as an error toast, and reads the ageing no further', async () => {
    const message = 'Only those who manage billing run the dunning';
    const { user, calls } = openAgeing({ 'POST /api/v1/billing/dunning-policy/run': { status: 403, body: refusal(message) } });
    await table(T.rowsTable);
    await screen.findByRole('form', { name: T.policyTitle });
    const reads = calls.filter((c) => c.startsWith('GET /api/v1/billing/ageing')).length;
    await user.click(policy().getByRole('button', { name: T.runNow }));
    expect(await screen.findByText(message)).toBeTruthy();
    expect((policy().getByRole('button', { name: T.runNow }) as HTMLButtonElement).disabled).toBe(false);
    expect(calls.filter((c) => c.startsWith('GET /api/v1/billing/ageing')).length).toBe(reads);
  });
});
