// One statement (/billing/statements/{id}) through the whole client over a fake portal API: the
// printable document, Print, and an administrator's "Add credit or charge" (the adjustment form
// machine, its client checks, the server's field errors, the toast and the statement read again).
import { readFileSync } from 'node:fs';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { BILLING_MESSAGES, type AdjustmentBody, type StatementWire } from '../../src/domain/billing';
import { ADJUSTMENT_MESSAGES } from '../../src/machines/adjustment-form';
import { ADJUSTMENT_DIALOG_TEXTS, amountLabel } from '../../src/ui/billing/statements/AdjustmentDialog';
import { STATEMENT_TEXTS } from '../../src/ui/billing/statements/parts';
import { adminProfile, userProfile } from '../machines/fixtures';
import { LINE, STATEMENT_CUSTOMER, adjustmentWire, closedStatement, draftStatement, envelope, refusalBody, yenStatement } from '../fixtures/statements';
import { fakePortalApi, type FakeAnswer } from '../model/framework/screen';
import { openSignedInAt } from './open-app';
import { fill } from './fill';

function openStatement(statement: StatementWire, answers: Record<string, FakeAnswer> = {}, profile = adminProfile) {
  const api = fakePortalApi({ [`GET /api/v1/billing/statements/${statement.id}`]: { body: envelope(statement) }, ...answers }, profile);
  const page = openSignedInAt(`/billing/statements/${statement.id}`, api.fetch, { profile });
  const reads = () => api.calls.filter((c) => c === `GET /api/v1/billing/statements/${statement.id}`).length;
  return { ...page, calls: api.calls, reads };
}

const documentNamed = async (name: string) => within(await screen.findByRole('article', { name }));
const cells = (row: HTMLElement) => [...row.querySelectorAll('td')].map((td) => td.textContent);

describe('a statement', () => {
  it('reads as a document: the customer, the cycle, each charge with its period, quantity and unit, then the totals in its currency, what is paid and what is due', async () => {
    const statement = closedStatement({ paidMinor: 5_000, amountDueMinor: 7_415, paymentStatus: 'part_paid' });
    openStatement(statement);
    const doc = await documentNamed('Statement ST-2026-02-000042');
    expect(doc.getByRole('heading', { name: 'Statement' })).toBeTruthy();
    expect(doc.getByText('ST-2026-02-000042')).toBeTruthy();
    expect(doc.queryByText('DRAFT')).toBeNull();
    const billedTo = within(doc.getByRole('region', { name: 'Billed to' }));
    for (const text of [STATEMENT_CUSTOMER.name, STATEMENT_CUSTOMER.company, STATEMENT_CUSTOMER.email]) expect(billedTo.getByText(text)).toBeTruthy();
    expect(billedTo.getByText(/12 Harbour Road/).textContent).toBe('12 Harbour Road\nPortsmouth PO1 2AB');
    expect(doc.getByText('February 2026')).toBeTruthy();

    const charges = within(doc.getByRole('table', { name: 'Charges' }));
    expect(charges.getAllByRole('columnheader').map((th) => th.textContent)).toEqual(['Service line', 'Description', 'Period', 'Quantity', 'Unit price', 'Amount']);
    const rows = charges.getAllByRole('row').slice(1).map(cells);
    expect(rows).toEqual([
      [LINE, 'Standard', 'Feb 1, 2026 – Feb 28, 2026', '28 days', 'USD 99.00', 'USD 99.00'],
      [LINE, 'Data beyond the plan', 'Feb 1, 2026 – Feb 28, 2026', '7.25 GB', 'USD 2.00', 'USD 14.50'],
      [LINE, 'Top-ups, 2 blocks', 'Feb 1, 2026 – Feb 28, 2026', '2 blocks', 'USD 15.00', 'USD 30.00'],
    ]);
    const reductions = within(doc.getByRole('table', { name: 'Discounts and corrections' }));
    expect(cells(reductions.getByText(/10 % off/).closest('tr')!)).toEqual(['Discount: 10 % off', '—', 'USD -14.35']);
    expect(cells(reductions.getByText(/Goodwill credit/).closest('tr')!)).toEqual(['Correction: Goodwill credit for the outage', '—', 'USD -5.00']);

    const totals = within(doc.getByRole('table', { name: 'Totals' }));
    expect(totals.getAllByRole('row').map((tr) => tr.textContent)).toEqual([
      'SubtotalUSD 143.50',
      'DiscountsUSD -14.35',
      'CorrectionsUSD -5.00',
      'Total (USD)USD 124.15',
      'PaidUSD 50.00',
      'Amount due by Mar 31, 2026USD 74.15',
    ]);
    expect(doc.getByText('Due').nextElementSibling!.textContent).toBe('Mar 31, 2026');
  });

  it('shows a yen statement in whole yen, with its credit negative', async () => {
    openStatement(yenStatement());
    const doc = await documentNamed('Statement ST-2026-02-000043');
    const totals = within(doc.getByRole('table', { name: 'Totals' }));
    expect(totals.getAllByRole('row').map((tr) => tr.textContent)).toEqual([
      'SubtotalJPY 12400',
      'DiscountsJPY 0',
      'CorrectionsJPY -1000',
      'Total (JPY)JPY 11400',
      'PaidJPY 0',
      'Amount due by Mar 31, 2026JPY 11400',
    ]);
    const charges = within(doc.getByRole('table', { name: 'Charges' }));
    expect(cells(charges.getByText('Standard').closest('tr')!)).toEqual([LINE, 'Standard', 'Feb 1, 2026 – Feb 28, 2026', '28 days', 'JPY 9900', 'JPY 9900']);
    expect(doc.getByText('JPY -1000', { selector: 'table[aria-label="Discounts and corrections"] td' })).toBeTruthy();
    // Nowhere a yen with decimals.
    expect(screen.queryByText(/JPY -?\d+\.\d/)).toBeNull();
  });

  it('marks a draft as DRAFT, without a number, and says when it was last updated', async () => {
    openStatement(draftStatement());
    const doc = await documentNamed('Statement (draft), March 2026');
    // Once in words beside the note, once as the watermark, which CSS draws from its attribute
    // (decoration, not text: out of the contrast check and the reading order).
    expect(doc.getAllByText('DRAFT')).toHaveLength(1);
    expect(document.querySelector('.statement-watermark')?.getAttribute('data-watermark')).toBe('DRAFT');
    expect(doc.getByText(STATEMENT_TEXTS.draftNote)).toBeTruthy();
    expect(doc.queryByText(/ST-2026/)).toBeNull();
    expect(doc.getByText('Last updated')).toBeTruthy();
    // Not charged yet: no due date, nothing paid, nothing due.
    expect(doc.queryByText('Due')).toBeNull();
    expect(within(doc.getByRole('table', { name: 'Totals' })).queryByText(/Paid|Amount due/)).toBeNull();
  });

  it('prints with the browser: Print or save as PDF calls window.print', async () => {
    // happy-dom has no print dialog: the page's call is what is checked.
    const print = vi.fn();
    Object.defineProperty(window, 'print', { configurable: true, writable: true, value: print });
    try {
      const { user } = openStatement(closedStatement());
      await documentNamed('Statement ST-2026-02-000042');
      await user.click(screen.getByRole('button', { name: STATEMENT_TEXTS.print }));
      expect(print).toHaveBeenCalledOnce();
    } finally {
      Reflect.deleteProperty(window, 'print');
    }
  });

  it('keeps the shell, the page header and its buttons off the paper', () => {
    const css = readFileSync('src/ui/billing/statements/statements.css', 'utf8');
    const print = css.slice(css.indexOf('@media print'));
    expect(print.length).toBeLessThan(css.length);
    for (const selector of ['.app-sidebar', '.app-topbar', '.preview-banner', '.statement-page > .page-header', '.statement-page button']) expect(print).toContain(selector);
    expect(print).toMatch(/display:\s*none\s*!important/);
  });

  it('shows a statement that cannot be loaded with Try Again', async () => {
    const statement = closedStatement();
    openStatement(statement, { [`GET /api/v1/billing/statements/${statement.id}`]: { status: 404, body: refusalBody(BILLING_MESSAGES.statementNotFound) } });
    expect(await screen.findByText(BILLING_MESSAGES.statementNotFound)).toBeTruthy();
    expect(screen.getByText(STATEMENT_TEXTS.statementLoadFailed)).toBeTruthy();
    expect(screen.getByRole('button', { name: /try again/i })).toBeTruthy();
  });
});

describe('Add credit or charge', () => {
  const dialog = () => within(screen.getByRole('dialog', { name: ADJUSTMENT_DIALOG_TEXTS.title }));

  it('checks the amount in the statement currency before sending, shows the server field error, then saves, says so and reads the statement again', async () => {
    const statement = closedStatement();
    const posted: AdjustmentBody[] = [];
    const { user, reads } = openStatement(statement, {
      'POST /api/v1/billing/adjustments': ({ body }) => {
        posted.push(body as AdjustmentBody);
        return posted.length === 1
          ? { status: 400, body: refusalBody('Invalid body', [{ path: 'body.reason', message: 'Say what the correction is for in a few more words' }]) }
          : { body: envelope(adjustmentWire(), BILLING_MESSAGES.adjustmentSaved) };
      },
    });
    await documentNamed('Statement ST-2026-02-000042');
    await user.click(screen.getByRole('button', { name: STATEMENT_TEXTS.addAdjustment }));
    const amount = dialog().getByLabelText(amountLabel('USD')) as HTMLInputElement;
    await fill(user, amount, '12.345');
    await user.click(dialog().getByRole('button', { name: 'Save' }));
    expect(dialog().getByText('USD amounts have at most 2 decimals')).toBeTruthy();
    expect(dialog().getByText(ADJUSTMENT_MESSAGES.reasonRequired)).toBeTruthy();
    expect(amount.getAttribute('aria-invalid')).toBe('true');
    expect(posted).toEqual([]);

    await user.clear(amount);
    await fill(user, amount, '12.50');
    await user.click(dialog().getByLabelText(ADJUSTMENT_DIALOG_TEXTS.charge));
    await fill(user, dialog().getByLabelText(ADJUSTMENT_DIALOG_TEXTS.reason), 'Cable');
    await user.click(dialog().getByRole('button', { name: 'Save' }));
    expect(await dialog().findByText('Say what the correction is for in a few more words')).toBeTruthy();
    expect(posted).toEqual([{ customerId: statement.customerId, currency: 'USD', direction: 'charge', amount: '12.50', reason: 'Cable', againstStatementId: statement.id }]);

    const before = reads();
    await fill(user, dialog().getByLabelText(ADJUSTMENT_DIALOG_TEXTS.reason), ': replacement cable sent on 3 March');
    await user.click(dialog().getByRole('button', { name: 'Save' }));
    expect((await screen.findAllByText(BILLING_MESSAGES.adjustmentSaved)).length).toBeGreaterThan(0);
    await waitFor(() => expect(screen.queryByRole('dialog', { name: ADJUSTMENT_DIALOG_TEXTS.title })).toBeNull());
    expect(posted[1]!.reason).toBe('Cable: replacement cable sent on 3 March');
    await waitFor(() => expect(reads()).toBeGreaterThan(before));
  });

  it('takes a yen amount in whole yen only', async () => {
    const posted: unknown[] = [];
    const { user } = openStatement(yenStatement(), {
      'POST /api/v1/billing/adjustments': ({ body }) => {
        posted.push(body);
        return { body: envelope(adjustmentWire({ currency: 'JPY' })) };
      },
    });
    await documentNamed('Statement ST-2026-02-000043');
    await user.click(screen.getByRole('button', { name: STATEMENT_TEXTS.addAdjustment }));
    await fill(user, dialog().getByLabelText(amountLabel('JPY')), '1500.5');
    await fill(user, dialog().getByLabelText(ADJUSTMENT_DIALOG_TEXTS.reason), 'Late activation');
    await user.click(dialog().getByRole('button', { name: 'Save' }));
    expect(dialog().getByText('JPY amounts have at most 0 decimals')).toBeTruthy();
    expect(posted).toEqual([]);
  });

  it('is not offered to a portal user who is not an administrator', async () => {
    openStatement(closedStatement(), {}, userProfile);
    await documentNamed('Statement ST-2026-02-000042');
    expect(screen.getByRole('button', { name: STATEMENT_TEXTS.print })).toBeTruthy();
    expect(screen.queryByRole('button', { name: STATEMENT_TEXTS.addAdjustment })).toBeNull();
  });
});
