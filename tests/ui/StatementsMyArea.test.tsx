// My Statements (/my/statements and /my/statements/{id}) for a signed-in customer, and the same
// pages in an admin's "View as customer" preview, through the whole client over a fake portal API.
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { STATEMENT_TEXTS } from '../../src/ui/billing/statements/parts';
import { MY_STATEMENTS_EMPTY, MY_STATEMENTS_TABLE } from '../../src/ui/billing/statements/MyStatementsView';
import { MY_ACCOUNT_TEXTS } from '../../src/ui/billing/account/parts';
import { ledgerEntryWire, myAccountWire, yenCreditNote } from '../fixtures/ledger-account';
import { customerProfile } from '../machines/fixtures';
import { customerFixture } from '../fixtures/customers';
import { closedStatement, draftStatement, envelope, refusalBody, summaryOf, yenStatement } from '../fixtures/statements';
import { fakePortalApi } from '../model/framework/screen';
import { openSignedInAt } from './open-app';

const closed = closedStatement();
const draft = draftStatement();
const rowsText = () => within(screen.getByRole('table', { name: MY_STATEMENTS_TABLE })).getAllByRole('row').slice(1).map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent));

describe('My Statements', () => {
  it('lists their statements newest first, number or Draft, cycle, total, status, due date and whether paid; one opens as its document with nothing to change', async () => {
    const api = fakePortalApi(
      {
        'GET /api/v1/my/statements': { body: envelope([summaryOf(closed), summaryOf(draft)]) },
        [`GET /api/v1/my/statements/${closed.id}`]: { body: envelope(closed) },
      },
      customerProfile,
    );
    const { user, location } = openSignedInAt('/my/statements', api.fetch, { profile: customerProfile });
    await screen.findByRole('table', { name: MY_STATEMENTS_TABLE });
    await waitFor(() => expect(rowsText()).toHaveLength(2));
    expect(rowsText()).toEqual([
      ['Draft', 'March 2026', 'USD 99.00', 'Draft', '—', '—'],
      ['ST-2026-02-000042', 'February 2026', 'USD 124.15', 'Closed', 'Mar 31, 2026', 'Unpaid, overdue'],
    ]);
    const nav = screen.getByRole('navigation', { name: 'Main navigation' });
    expect(within(nav).getByRole('link', { name: 'Statements' }).getAttribute('href')).toBe('/my/statements');

    await user.click(screen.getByRole('button', { name: 'ST-2026-02-000042' }));
    await waitFor(() => expect(location()).toBe(`/my/statements/${closed.id}`));
    const doc = within(await screen.findByRole('article', { name: 'Statement ST-2026-02-000042' }));
    const totals = within(doc.getByRole('table', { name: 'Totals' }));
    expect(totals.getByText('Total (USD)').closest('tr')!.textContent).toBe('Total (USD)USD 124.15');
    // What they still owe on it, and by when.
    expect(totals.getByText(/^Amount due/).closest('tr')!.textContent).toBe('Amount due by Mar 31, 2026USD 124.15');
    // Print is theirs; corrections are not.
    expect(screen.getByRole('button', { name: STATEMENT_TEXTS.print })).toBeTruthy();
    expect(screen.queryByRole('button', { name: STATEMENT_TEXTS.addAdjustment })).toBeNull();
    expect(api.calls.some((c) => c.includes('/billing/'))).toBe(false);
  });

  it('shows above them their balance per currency, what is overdue, their terms, and their payments without the notes kept about them', async () => {
    const api = fakePortalApi(
      {
        'GET /api/v1/my/statements': { body: envelope([summaryOf(closed)]) },
        // As if the server let a note and the recorder slip through: the customer still never sees them.
        'GET /api/v1/my/account': { body: envelope({ ...myAccountWire(), payments: [yenCreditNote(), ledgerEntryWire()] }) },
      },
      customerProfile,
    );
    openSignedInAt('/my/statements', api.fetch, { profile: customerProfile });
    const balance = within(await screen.findByRole('region', { name: MY_ACCOUNT_TEXTS.balanceTitle }));
    const usd = within(balance.getByRole('region', { name: 'USD' }));
    expect(usd.getByText('USD 74.15 owed')).toBeTruthy();
    expect(usd.getByText('USD 74.15 overdue')).toBeTruthy();
    const yen = within(balance.getByRole('region', { name: 'JPY' }));
    expect(yen.getByText('JPY 2000 credit')).toBeTruthy();
    expect(yen.getByText('Nothing overdue')).toBeTruthy();
    expect(balance.getByText('Payment terms: net 30 days')).toBeTruthy();

    const payments = screen.getByRole('table', { name: MY_ACCOUNT_TEXTS.paymentsTable });
    expect(within(payments).getAllByRole('row').slice(1).map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent))).toEqual([
      ['Mar 20, 2026', 'Credit note', 'JPY 2000', 'CN-0007', '—'],
      ['Mar 15, 2026', 'Payment', 'USD 50.00', 'BANK-7781', 'ST-2026-02-000042'],
    ]);
    expect(screen.queryByText(/Paid part by phone/)).toBeNull();
    expect(screen.queryByText(/Ada Admin/)).toBeNull();
    // The statements are still there, below.
    expect(await screen.findByRole('table', { name: MY_STATEMENTS_TABLE })).toBeTruthy();
  });

  it('says the balance in one line on their overview, which leads to their statements and payments', async () => {
    const api = fakePortalApi({ 'GET /api/v1/my/account': { body: envelope(myAccountWire()) }, 'GET /api/v1/my/statements': { body: envelope([]) } }, customerProfile);
    const { user, location } = openSignedInAt('/my', api.fetch, { profile: customerProfile });
    const line = await screen.findByText(`${MY_ACCOUNT_TEXTS.balanceTitle}:`);
    expect(line.closest('p')!.textContent).toContain('JPY 2000 credit · USD 74.15 owed (USD 74.15 overdue)');
    await user.click(within(line.closest('p')!).getByRole('button', { name: MY_ACCOUNT_TEXTS.seeStatements }));
    await waitFor(() => expect(location()).toBe('/my/statements'));
  });

  it('says so when there is no statement yet', async () => {
    const api = fakePortalApi({ 'GET /api/v1/my/statements': { body: envelope([]) } }, customerProfile);
    openSignedInAt('/my/statements', api.fetch, { profile: customerProfile });
    expect(await screen.findByText(MY_STATEMENTS_EMPTY)).toBeTruthy();
  });

  it("shows another customer's statement as not found, in the server's words", async () => {
    const other = yenStatement();
    const api = fakePortalApi({ [`GET /api/v1/my/statements/${other.id}`]: { status: 404, body: refusalBody('Statement not found') } }, customerProfile);
    openSignedInAt(`/my/statements/${other.id}`, api.fetch, { profile: customerProfile });
    expect(await screen.findByText('Statement not found')).toBeTruthy();
    expect(screen.queryByRole('article')).toBeNull();
  });

  it("the admin preview reads the customer's statements through the preview routes and stays in the preview", async () => {
    const previewed = customerFixture();
    const base = `/api/v1/customers/${previewed.uuid}/preview`;
    const api = fakePortalApi({
      [`POST ${base}`]: { body: envelope({ customer: previewed }) },
      [`GET ${base}/statements`]: { body: envelope([summaryOf(closed)]) },
      [`GET ${base}/statements/${closed.id}`]: { body: envelope(closed) },
    });
    const { user, location } = openSignedInAt(`/customers/${previewed.uuid}/preview/statements`, api.fetch);
    await user.click(await screen.findByRole('button', { name: 'ST-2026-02-000042' }));
    await waitFor(() => expect(location()).toBe(`/customers/${previewed.uuid}/preview/statements/${closed.id}`));
    await screen.findByRole('article', { name: 'Statement ST-2026-02-000042' });
    expect(screen.queryByRole('button', { name: STATEMENT_TEXTS.addAdjustment })).toBeNull();
    expect(api.calls).toContain(`GET ${base}/statements/${closed.id}`);
    expect(api.calls.some((c) => c.includes('/api/v1/my/') || c.includes('/billing/'))).toBe(false);
    // The breadcrumb leads back to the list inside the preview.
    const crumbs = screen.getByRole('navigation', { name: 'Breadcrumb' });
    await user.click(within(crumbs).getByRole('link', { name: 'Statements' }));
    await waitFor(() => expect(location()).toBe(`/customers/${previewed.uuid}/preview/statements`));
  });
});
