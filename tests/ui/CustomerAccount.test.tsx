// A customer's account on their page (/customer/terminals/{uuid}) through the whole client over a
// fake portal API: the balances per currency, the open statements, the ledger and the reminders,
// and the payment terms form for those who manage billing (its client check, the server's field
// error beside the field, the save and the account read again).
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { AdminUser } from '../../src/domain/auth';
import { CUSTOMER_USAGE_PAGE_SIZE, summariseUsage } from '../../src/domain/customer-terminals';
import { paginationOf } from '../../src/domain/customers';
import { LEDGER_MESSAGES, type BillingTermsBody, type BillingTermsWire } from '../../src/domain/ledger';
import { ACCOUNT_TEXTS } from '../../src/ui/billing/account/parts';
import { TERMS_FORM_TEXTS } from '../../src/ui/billing/account/BillingTermsForm';
import { adminProfile, userProfile } from '../machines/fixtures';
import { PAST_DAY_REFUSED, customerAccountWire, termsWire } from '../fixtures/ledger-account';
import { closedStatement, envelope, refusalBody } from '../fixtures/statements';
import { fakePortalApi, type FakeAnswer } from '../model/framework/screen';
import { PAGE_CUSTOMER, customerPageAnswers } from '../model/machines/customer-terminals-page';
import { fill } from './fill';
import { openSignedInAt } from './open-app';

const customer = PAGE_CUSTOMER;
const ACCOUNT = `GET /api/v1/customers/${customer.uuid}/account`;
const TERMS = `PUT /api/v1/customers/${customer.uuid}/billing-terms`;

function openAccount(answers: Record<string, FakeAnswer> = {}, profile: AdminUser = adminProfile) {
  const api = fakePortalApi(
    {
      // The rest of the page (the customer, their usage and terminals) answered as its models answer
      // it, with no usage rows: the table is not what these tests read.
      ...customerPageAnswers(),
      [`GET /api/v1/terminals/customers/${customer.uuid}/usage/page`]: { body: envelope({ records: [], pagination: paginationOf(0, 1, CUSTOMER_USAGE_PAGE_SIZE), summary: summariseUsage([]) }) },
      [`GET /api/v1/customers/${customer.uuid}/statements`]: { body: envelope([]) },
      [ACCOUNT]: { body: envelope(customerAccountWire({ customerId: customer.uuid })) },
      ...answers,
    },
    profile,
  );
  const page = openSignedInAt(`/customer/terminals/${customer.uuid}`, api.fetch, { profile });
  const reads = () => api.calls.filter((c) => c === ACCOUNT).length;
  return { ...page, calls: api.calls, reads };
}

const section = async () => within(await screen.findByRole('region', { name: ACCOUNT_TEXTS.title }));
const rowsOf = (table: HTMLElement) => within(table).getAllByRole('row').slice(1).map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent));

describe("a customer's account on their page", () => {
  it('shows per currency what they owe or hold as credit, the open statements with what is left, the ledger and the reminders', async () => {
    openAccount();
    const account = await section();
    const usd = within(await account.findByRole('region', { name: 'Balance USD' }));
    expect(usd.getByText('USD 74.15 owed')).toBeTruthy();
    expect(usd.getAllByText('USD 74.15')).toHaveLength(2); // open, and all of it overdue
    expect(within(account.getByRole('region', { name: 'Balance JPY' })).getByText('JPY 2000 credit')).toBeTruthy();

    const open = account.getByRole('table', { name: ACCOUNT_TEXTS.openStatements });
    expect(rowsOf(open)).toEqual([['ST-2026-02-000042', 'Mar 31, 2026', '31', 'USD 74.15']]);
    expect(within(open).getByRole('link', { name: 'ST-2026-02-000042' }).getAttribute('href')).toBe(`/billing/statements/${closedStatement().id}`);

    expect(rowsOf(account.getByRole('table', { name: ACCOUNT_TEXTS.history }))).toEqual([
      ['Mar 20, 2026', 'Credit note', 'JPY -2000', 'CN-0007', '—'],
      ['Mar 15, 2026', 'Payment', 'USD -50.00', 'BANK-7781Paid part by phone, rest promised', 'ST-2026-02-000042'],
      ['Mar 1, 2026', 'Statement', 'USD 124.15', 'ST-2026-02-000042', '—'],
    ]);
    expect(within(account.getByRole('list', { name: ACCOUNT_TEXTS.dunning })).getByText('First reminder')).toBeTruthy();
    expect(account.queryByText(ACCOUNT_TEXTS.blocked)).toBeNull();
  });

  it("saves the payment terms: the body sent, the server's refusal of the day beside the day, then saved and the account read again", async () => {
    const sent: BillingTermsBody[] = [];
    let terms: BillingTermsWire = termsWire();
    const { user, reads } = openAccount({
      [ACCOUNT]: () => ({ body: envelope(customerAccountWire({ terms })) }),
      [TERMS]: ({ body }) => {
        sent.push(body as BillingTermsBody);
        if (sent.length === 1) return { status: 400, body: refusalBody('Invalid body', [{ path: 'promiseToPayUntil', message: PAST_DAY_REFUSED }]) };
        terms = termsWire({ paymentTermsDays: 45, promiseToPayUntil: '2099-01-15', promiseNote: 'After the holidays' });
        return { body: envelope(terms, LEDGER_MESSAGES.termsSaved) };
      },
    });
    const form = within(await (await section()).findByRole('form', { name: TERMS_FORM_TEXTS.title }));
    await user.click(form.getByRole('combobox', { name: TERMS_FORM_TEXTS.days }));
    await user.click(await screen.findByRole('option', { name: 'Net 45' }));
    const day = form.getByLabelText(TERMS_FORM_TEXTS.promise) as HTMLInputElement;
    await fill(user, day, '2026-01-02');
    await user.click(form.getByRole('button', { name: TERMS_FORM_TEXTS.save }));

    expect(await form.findByText(PAST_DAY_REFUSED)).toBeTruthy();
    expect(day.getAttribute('aria-invalid')).toBe('true');
    expect(day.getAttribute('aria-describedby')).toContain(form.getByText(PAST_DAY_REFUSED).id);
    expect(sent).toEqual([{ paymentTermsDays: 45, promiseToPayUntil: '2026-01-02', promiseNote: null }]);

    const before = reads();
    await user.clear(day);
    await fill(user, day, '2099-01-15');
    await fill(user, form.getByLabelText(TERMS_FORM_TEXTS.note), 'After the holidays');
    await user.click(form.getByRole('button', { name: TERMS_FORM_TEXTS.save }));
    expect((await screen.findAllByText(LEDGER_MESSAGES.termsSaved)).length).toBeGreaterThan(0);
    expect(sent[1]).toEqual({ paymentTermsDays: 45, promiseToPayUntil: '2099-01-15', promiseNote: 'After the holidays' });
    await waitFor(() => expect(reads()).toBeGreaterThan(before));
    expect(form.queryByText(PAST_DAY_REFUSED)).toBeNull();
  });

  it('shows the terms as words, with no form, to someone who reads billing but does not manage it; a block for non-payment is tagged', async () => {
    const blocked = termsWire({ promiseToPayUntil: '2026-12-15', promiseNote: 'After the holidays', blockedForNonPayment: true });
    openAccount({ [ACCOUNT]: { body: envelope(customerAccountWire({ terms: blocked })) } }, userProfile);
    const account = await section();
    expect(await account.findByText('Net 30 · Promise to pay until Dec 15, 2026 (After the holidays)')).toBeTruthy();
    expect(account.getByText(ACCOUNT_TEXTS.blocked)).toBeTruthy();
    expect(account.queryByRole('form', { name: TERMS_FORM_TEXTS.title })).toBeNull();
    expect(account.queryByRole('button', { name: TERMS_FORM_TEXTS.save })).toBeNull();
  });

  it('says why the account could not be read, and reads it again on request', async () => {
    let failing = true;
    const { user, reads } = openAccount({ [ACCOUNT]: () => (failing ? { status: 500, body: refusalBody('Database unavailable') } : { body: envelope(customerAccountWire()) }) });
    const account = await section();
    expect(await account.findByText(`${ACCOUNT_TEXTS.failed}: Database unavailable`)).toBeTruthy();
    failing = false;
    const before = reads();
    await user.click(account.getByRole('button', { name: ACCOUNT_TEXTS.retry }));
    expect(await account.findByRole('table', { name: ACCOUNT_TEXTS.openStatements })).toBeTruthy();
    expect(reads()).toBe(before + 1);
  });
});
