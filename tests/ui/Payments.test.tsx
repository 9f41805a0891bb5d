// Billing → Payments through the whole client (composition root, router, session, the two lists,
// the bank import, bank line decision, ledger entry form and ledger reverse machines, the customer
// picker) over a fake portal API at the fetch seam that records what it was sent.
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { AdminUser } from '../../src/domain/auth';
import { LEDGER_MESSAGES } from '../../src/domain/ledger';
import { PAYMENTS_TEXTS as T, lineName, entryName } from '../../src/ui/billing/payments/parts';
import { adminProfile, profileWith } from '../machines/fixtures';
import { envelope, refusal } from '../fixtures/alerts';
import {
  ACME_ID,
  ACME_OPTION,
  NEW_STATEMENT_ID,
  customerAccount,
  customerRows,
  importMessage,
  importReport,
  paymentEntry,
  posted,
  refundEntry,
  reversalEntry,
  reversedEntry,
  waitingLine,
  matchedLine,
} from '../fixtures/ledger';
import { fakePortalApi, type FakeAnswer } from '../model/framework/screen';
import { enteredDialog } from './dialogs';
import { fill } from './fill';
import { openSignedInAt } from './open-app';

const page = (items: unknown[]) => envelope({ items, pagination: { total: items.length, page: 1, limit: 25, pages: 1 } });

function openPayments(answers: Record<string, FakeAnswer> = {}, profile: AdminUser = adminProfile) {
  const bodies: Array<[string, unknown]> = [];
  const keep =
    (call: string, answer: FakeAnswer): FakeAnswer =>
    (request) => {
      bodies.push([call, request.body]);
      return typeof answer === 'function' ? answer(request) : answer;
    };
  const posts: Record<string, FakeAnswer> = {
    'POST /api/v1/billing/bank-imports': { body: envelope(importReport(), importMessage) },
    [`POST /api/v1/billing/bank-lines/${waitingLine.id}/match`]: { body: envelope(matchedLine, LEDGER_MESSAGES.lineMatched) },
    'POST /api/v1/billing/ledger': { body: envelope(posted(), LEDGER_MESSAGES.paymentRecorded) },
    ...Object.fromEntries(Object.entries(answers).filter(([key]) => key.startsWith('POST '))),
  };
  const api = fakePortalApi(
    {
      'GET /api/v1/billing/bank-lines': { body: page([waitingLine]) },
      'GET /api/v1/billing/ledger': { body: page([paymentEntry, refundEntry, reversalEntry, reversedEntry]) },
      'GET /api/v1/customers': { body: envelope({ customers: customerRows, pagination: { total: 2, page: 1, limit: 20, pages: 1 } }) },
      [`GET /api/v1/customers/${ACME_ID}/account`]: { body: envelope(customerAccount()) },
      ...answers,
      ...Object.fromEntries(Object.entries(posts).map(([key, answer]) => [key, keep(key, answer)])),
    },
    profile,
  );
  const opened = openSignedInAt('/billing/payments', api.fetch, { profile });
  const count = (prefix: string) => api.calls.filter((c) => c.startsWith(prefix)).length;
  return { ...opened, calls: api.calls, bodies, count };
}

const importSection = () => within(screen.getByRole('region', { name: T.importTitle }));
const table = async (name: string) => within(await screen.findByRole('table', { name }));

async function pickAcme(user: ReturnType<typeof openPayments>['user'], dialog: ReturnType<typeof within>) {
  await user.click(dialog.getByRole('combobox', { name: T.customerLabel }));
  await user.click(await screen.findByRole('option', { name: ACME_OPTION }));
}

describe('Payments page', () => {
  it('imports a bank statement and shows the server’s words and each line with what became of it; the waiting lines and the ledger load again', async () => {
    const { user, bodies, count } = openPayments();
    const ledger = await table(T.ledgerTable);
    // Money in is a plus, a refund money out; Reverse… only on entries not yet reversed.
    expect(within(ledger.getByText('TRX-2041').closest('tr')!).getByText('+USD 120.00', { exact: false })).toBeTruthy();
    expect(ledger.getByText('\u2212USD 50.00', { exact: false })).toBeTruthy();
    expect(ledger.getAllByRole('button', { name: /^Reverse / }).map((b) => b.getAttribute('aria-label'))).toEqual([`Reverse ${entryName(paymentEntry)}`, `Reverse ${entryName(refundEntry)}`]);

    const xml = '<Document><BkToCstmrStmt/></Document>';
    await user.upload(screen.getByLabelText(T.fileLabel), new File([xml], 'april.xml', { type: 'text/xml' }));
    const loads = { waiting: count('GET /api/v1/billing/bank-lines'), ledger: count('GET /api/v1/billing/ledger') };
    await user.click(screen.getByRole('button', { name: T.importButton }));

    const report = await table(T.reportTable);
    expect(importSection().getByRole('status').textContent).toBe(`april.xml: ${importMessage}`);
    const matched = within(report.getByText('USD 120.00').closest('tr')!);
    expect(matched.getByText('Matched')).toBeTruthy();
    expect(matched.getByText('Acme Maritime \u00b7 S-2026-0001')).toBeTruthy();
    expect(within(report.getByText('USD 99.00').closest('tr')!).getByText('To match by hand')).toBeTruthy();
    expect(bodies).toEqual([['POST /api/v1/billing/bank-imports', { format: 'camt053', fileName: 'april.xml', content: xml, csv: null }]]);
    await waitFor(() => expect([count('GET /api/v1/billing/bank-lines'), count('GET /api/v1/billing/ledger')]).toEqual([loads.waiting + 1, loads.ledger + 1]));

    await user.click(screen.getByRole('button', { name: T.importAnother }));
    expect(screen.getByRole('button', { name: T.importButton })).toBeTruthy();
  });

  it('sends a CSV with its column mapping, and shows the server’s 400 naming what is wrong', async () => {
    const message = 'Validation failed: csv.payer must name a column of the file';
    const { user, bodies } = openPayments({ 'POST /api/v1/billing/bank-imports': { status: 400, body: refusal(message) } });
    await table(T.waitingTable);
    await user.upload(screen.getByLabelText(T.fileLabel), new File(['Booked;Sum;Name;Text\n'], 'april.csv', { type: 'text/csv' }));
    // The file's name chose CSV: the mapping is asked for.
    const payer = screen.getByLabelText('Payer column');
    await user.clear(payer);
    await fill(user, payer, 'Name');
    await user.click(screen.getByRole('button', { name: T.importButton }));
    expect(await importSection().findByText(message)).toBeTruthy();
    expect(bodies[0]![1]).toMatchObject({ format: 'csv', fileName: 'april.csv', csv: { payer: 'Name', date: 'Date', currency: 'USD', currencyColumn: null, delimiter: ',' } });
    expect(screen.getByRole('button', { name: T.importButton })).toBeTruthy();
  });

  it('matches a waiting line to a customer’s statement picked among their open ones in its currency', async () => {
    const { user, bodies, count } = openPayments();
    const waiting = await table(T.waitingTable);
    await user.click(waiting.getByRole('button', { name: `Match ${lineName(waitingLine)}` }));
    const dialog = within(await enteredDialog(T.matchTitle));
    expect(dialog.getByText('ACME MARITIME LDA')).toBeTruthy();
    await pickAcme(user, dialog);
    const newer = await dialog.findByRole('checkbox', { name: /S-2026-0002/ });
    expect(dialog.getAllByRole('checkbox')).toHaveLength(2);
    await user.click(newer);
    const loads = count('GET /api/v1/billing/bank-lines');
    await user.click(dialog.getByRole('button', { name: T.matchButton }));
    expect(await screen.findByText(LEDGER_MESSAGES.lineMatched)).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('dialog', { name: T.matchTitle })).toBeNull());
    expect(bodies).toEqual([[`POST /api/v1/billing/bank-lines/${waitingLine.id}/match`, { customerId: ACME_ID, statementIds: [NEW_STATEMENT_ID] }]]);
    await waitFor(() => expect(count('GET /api/v1/billing/bank-lines')).toBe(loads + 1));
  });

  it('records a payment: the server’s field error sits beside the date, and once corrected the entry is recorded', async () => {
    const { user, bodies, count } = openPayments({
      'POST /api/v1/billing/ledger': ({ body }) =>
        (body as { occurredOn: string }).occurredOn === '2026-04-01'
          ? { body: envelope(posted(), LEDGER_MESSAGES.paymentRecorded) }
          : { status: 400, body: { ...refusal(LEDGER_MESSAGES.dateInFuture), errors: [{ path: 'occurredOn', message: LEDGER_MESSAGES.dateInFuture }] } },
    });
    await table(T.ledgerTable);
    await user.click(screen.getByRole('button', { name: T.recordPayment }));
    const dialog = within(await enteredDialog(T.entryTitle));
    await pickAcme(user, dialog);
    // Acme is billed in USD only: the currency is theirs.
    await waitFor(() => expect(dialog.getByRole('combobox', { name: 'Currency' }).textContent).toContain('USD'));
    await fill(user, dialog.getByLabelText('Amount'), '120.50');
    await user.click(dialog.getByRole('button', { name: T.recordButton }));
    const date = dialog.getByLabelText('Date') as HTMLInputElement;
    await waitFor(() => expect(date.getAttribute('aria-invalid')).toBe('true'));
    expect(dialog.getByText(LEDGER_MESSAGES.dateInFuture)).toBeTruthy();

    const loads = count('GET /api/v1/billing/ledger');
    await user.clear(date);
    await fill(user, date, '2026-04-01');
    await user.click(dialog.getByRole('button', { name: T.recordButton }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: T.entryTitle })).toBeNull());
    expect(bodies.at(-1)).toEqual([
      'POST /api/v1/billing/ledger',
      { customerId: ACME_ID, kind: 'payment', currency: 'USD', amount: '120.50', occurredOn: '2026-04-01', method: 'bank_transfer', reference: null, note: null, statementIds: null },
    ]);
    await waitFor(() => expect(count('GET /api/v1/billing/ledger')).toBe(loads + 1));
  });

  it('shows a reader the waiting lines and the ledger with nothing to change', async () => {
    openPayments({}, profileWith(['billing:read']));
    const waiting = await table(T.waitingTable);
    expect(waiting.getByText('ACME MARITIME LDA')).toBeTruthy();
    expect((await table(T.ledgerTable)).getByText('TRX-2041')).toBeTruthy();
    expect(screen.queryByRole('button', { name: T.recordPayment })).toBeNull();
    expect(screen.queryByLabelText(T.fileLabel)).toBeNull();
    expect(screen.queryAllByRole('button', { name: /^(Match|Ignore|Reverse) / })).toHaveLength(0);
  });
});
