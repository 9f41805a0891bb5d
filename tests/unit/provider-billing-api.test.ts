import { describe, expect, it } from 'vitest';
import { UNEXPECTED_RESPONSE } from '../../src/api/client';
import { normaliseProviderBilling, normaliseProviderInvoice } from '../../src/api/provider-billing';
import { PROVIDER_BILLING_MESSAGES } from '../../src/domain/provider-billing';
import { apiAnswering, envelope } from '../fixtures/api-fetch';
import { NEWEST, billingFixture, invoiceFixture } from '../fixtures/provider-billing';

const billing = billingFixture();
const invoice = invoiceFixture();

describe('normaliseProviderBilling', () => {
  it('reads the balances and invoices as the server sends them', () => {
    expect(normaliseProviderBilling(billing)).toEqual(billing);
  });

  it('is null without its two lists, and drops balances and invoices it cannot read', () => {
    expect(normaliseProviderBilling({ balances: [] })).toBeNull();
    expect(normaliseProviderBilling('billing')).toBeNull();
    const read = normaliseProviderBilling({
      balances: [{ currency: 'USD' }, ...billing.balances],
      invoices: [{ invoiceId: 'INV-1' }, { ...billing.invoices[0], status: null, currency: null, description: '' }],
    });
    expect(read).toEqual({ balances: billing.balances, invoices: [{ ...billing.invoices[0], status: 'Unknown', currency: 'USD', description: null }] });
  });
});

describe('normaliseProviderInvoice', () => {
  it('reads the invoice, its lines and the service lines the inventory does not have', () => {
    expect(normaliseProviderInvoice(invoice)).toEqual(invoice);
  });

  it('is null without an id, a date or its lines, and drops unreadable lines and service lines', () => {
    expect(normaliseProviderInvoice({ ...invoice, invoiceId: '' })).toBeNull();
    expect(normaliseProviderInvoice({ ...invoice, lines: undefined })).toBeNull();
    const read = normaliseProviderInvoice({
      ...invoice,
      lines: ['line', { ...invoice.lines[0], serviceLines: [{ userTerminalId: 'ut-1' }, ...invoice.lines[0]!.serviceLines] }],
      unmatched: null,
    });
    expect(read).toEqual({ ...invoice, lines: [invoice.lines[0]], unmatched: { lines: 0, amount: 0 } });
  });
});

describe('provider billing API', () => {
  it('overview: GET /billing/provider answers the balances and invoices', async () => {
    const { api, sent } = apiAnswering(200, envelope(billing));
    expect(await api.providerBilling.overview()).toEqual({ ok: true, status: 200, data: billing, message: 'ok' });
    expect(sent()).toMatchObject({ method: 'GET', path: '/api/v1/billing/provider', body: undefined });
  });

  it('invoice: GET /billing/provider/invoices/{id}, the id escaped, answers the invoice', async () => {
    const { api, sent } = apiAnswering(200, envelope(invoice));
    expect(await api.providerBilling.invoice(NEWEST)).toEqual({ ok: true, status: 200, data: invoice, message: 'ok' });
    expect(sent()).toMatchObject({ method: 'GET', path: `/api/v1/billing/provider/invoices/${NEWEST}` });
    await api.providerBilling.invoice('INV/1 2');
    expect(sent(1).path).toBe('/api/v1/billing/provider/invoices/INV%2F1%202');
  });

  it('an unknown invoice and provider trouble come back with the server’s words; an unreadable answer is a failure', async () => {
    const missing = apiAnswering(404, { success: false, message: PROVIDER_BILLING_MESSAGES.invoiceNotFound, requestId: 'r' });
    expect(await missing.api.providerBilling.invoice('INV-0')).toEqual({ ok: false, status: 404, message: PROVIDER_BILLING_MESSAGES.invoiceNotFound });
    const down = apiAnswering(503, { success: false, message: 'The provider is not configured', requestId: 'r' });
    expect(await down.api.providerBilling.overview()).toEqual({ ok: false, status: 503, message: 'The provider is not configured' });
    const odd = apiAnswering(200, envelope({ nothing: true }));
    expect(await odd.api.providerBilling.overview()).toEqual({ ok: false, status: 200, message: UNEXPECTED_RESPONSE });
    expect(await odd.api.providerBilling.invoice(NEWEST)).toEqual({ ok: false, status: 200, message: UNEXPECTED_RESPONSE });
  });
});
