// The simulated account's billing, contacts, managed accounts and data pool, over real HTTP, every
// request and answer held to the contract (the project's own, or the provider's published document
// in `npm run test:provider-contract`). Invoices must agree with what the rest of the simulator
// says: the plans and blocks of the lines, their top-ups, and the overage the usage query reports.
import { beforeEach, describe, expect, it } from 'vitest';
import { INVOICE_MONTHS, INVOICE_TERMS_DAYS, leftOffLine } from '../../../server/simulator/account';
import type { RunningSimulator } from '../../../server/simulator/index';
import { expectFailure, simulatorPerTest } from './simulator-calls';

const START = Date.parse('2026-03-18T10:30:00.000Z');
const DAY = 86_400_000;

const env = simulatorPerTest(new Date(START).toISOString());
const { call, advance } = env;
let sim: RunningSimulator;
beforeEach(() => {
  sim = env.sim;
});

interface InvoiceLine {
  productReferenceId: string;
  serviceLineNumbers: string[];
  quantity: number;
  unitPrice: number;
  taxAmount: number;
  subTotal: number;
}

const invoices = async () => (await call('GET', '/public/v2/billing/invoices')).body.content;
const invoice = async (id: string) => (await call('GET', `/public/v2/billing/invoices/${id}`)).body.content;
const round2 = (n: number) => Math.round(n * 100) / 100;

describe('invoices and balance', () => {
  it('lists the last twelve months newest first; only the newest is still due, and the balance is what it owes', async () => {
    const list = await invoices();
    expect(list.totalCount).toBe(INVOICE_MONTHS);
    const [newest, ...older] = list.results;
    expect(newest).toMatchObject({ invoiceDate: '2026-03-01T00:00:00.000Z', currency: 'USD', status: 'Outstanding', description: 'Starlink service 2026-02' });
    expect(newest.dueDate).toBe(new Date(Date.parse('2026-03-01T00:00:00.000Z') + INVOICE_TERMS_DAYS * DAY).toISOString());
    expect(newest.dueAmount).toBe(newest.amount);
    expect(older.every((i: { status: string; dueAmount: number }) => i.status === 'Paid' && i.dueAmount === 0)).toBe(true);
    expect(new Set(list.results.map((i: { invoiceId: string }) => i.invoiceId)).size).toBe(INVOICE_MONTHS);
    const balance = (await call('GET', '/public/v2/billing/balance')).body.content;
    expect(balance.balances).toEqual([{ currency: 'USD', dueAmount: newest.amount }]);

    await advance(Date.parse('2026-03-28T00:00:00.000Z') - env.nowMs);
    expect((await invoices()).results[0].status).toBe('DueSoon');
    await advance(Date.parse('2026-04-01T00:00:00.000Z') - env.nowMs);
    const april = await invoices();
    expect(april.results[0]).toMatchObject({ invoiceDate: '2026-04-01T00:00:00.000Z', status: 'Outstanding' });
    expect(april.results[1]).toMatchObject({ invoiceId: newest.invoiceId, status: 'Paid', dueAmount: 0 });
  });

  it("adds up: the amount is its lines' totals, each line its quantity times its price", async () => {
    const { results } = await invoices();
    const detail = await invoice(results[0].invoiceId);
    expect(detail).toMatchObject({ invoiceId: results[0].invoiceId, currency: 'USD', dueAmount: results[0].amount, paidAmount: 0 });
    const lines: InvoiceLine[] = detail.invoiceLines;
    for (const line of lines) expect(line.subTotal).toBe(round2(line.quantity * line.unitPrice));
    expect(round2(lines.reduce((sum, line) => sum + line.subTotal + line.taxAmount, 0))).toBe(results[0].amount);
  });

  it("bills every line that ran the whole month for its plan, pro-rates the one that started in it, bills one line the inventory does not have and leaves one off", async () => {
    const { results } = await invoices();
    const lines: InvoiceLine[] = (await invoice(results[0].invoiceId)).invoiceLines;
    const known = new Set(sim.fleet.serviceLineNumbers());
    const orphans = lines.filter((line) => !known.has(line.serviceLineNumbers[0]!));
    expect(orphans).toHaveLength(1);
    expect(orphans[0]).toMatchObject({ productReferenceId: 'SUB-METERED-50GB', quantity: 1 });
    // The seeded omission: a line the provider charged for the month, and none of it on the invoice.
    const charges = sim.fleet.cycleCharges(Date.parse('2026-02-01'));
    const leftOff = leftOffLine(charges);
    expect(leftOff).not.toBeNull();
    expect(charges.some((c) => c.serviceLineNumber === leftOff)).toBe(true);
    expect(lines.filter((l) => l.serviceLineNumbers.includes(leftOff!))).toEqual([]);

    const plans = new Set(['SUB-METERED-50GB', 'SUB-METERED-1TB', 'SUB-PRIORITY-BLOCKS']);
    for (const number of sim.fleet.serviceLineNumbers()) {
      if (number === leftOff) continue;
      const line = sim.fleet.serviceLine(number)!;
      const fees = lines.filter((l) => l.serviceLineNumbers[0] === number && plans.has(l.productReferenceId));
      const start = Date.parse(line.startDate!);
      const end = line.endDate ? Date.parse(line.endDate) : Infinity;
      if (start >= Date.parse('2026-03-01') || end < Date.parse('2026-02-01')) {
        expect(fees, number).toEqual([]);
      } else if (start <= Date.parse('2026-02-01') && end >= Date.parse('2026-03-01')) {
        expect(fees, number).toEqual([expect.objectContaining({ productReferenceId: line.productReferenceId, quantity: 1 })]);
      } else {
        expect(fees.length, number).toBe(1);
        expect(fees[0]!.quantity, number).toBeGreaterThan(0);
        expect(fees[0]!.quantity, number).toBeLessThan(1);
      }
    }
  });

  it('bills the overage the usage query reports for the month, line by line', async () => {
    const { results } = await invoices();
    const lines: InvoiceLine[] = (await invoice(results[0].invoiceId)).invoiceLines;
    const usage = (await call('POST', '/public/v2/data-usage/query?limit=250', { previousBillingCycles: 1 })).body.content.results;
    const leftOff = leftOffLine(sim.fleet.cycleCharges(Date.parse('2026-02-01')));
    let checked = 0;
    for (const record of usage) {
      if (record.serviceLineNumber === leftOff) continue;
      const february = record.billingCycles[0];
      const overage = (february.overageLines as { overagePrice: number; productId: string }[]).filter((o) => o.productId === 'OVERAGE-PRIORITY-PER-GB' && o.overagePrice > 0);
      const billed = lines.filter((l) => l.serviceLineNumbers[0] === record.serviceLineNumber && l.productReferenceId === 'OVERAGE-PRIORITY-PER-GB');
      expect(round2(billed.reduce((sum, l) => sum + l.subTotal, 0)), record.serviceLineNumber).toBe(round2(overage.reduce((sum, o) => sum + o.overagePrice, 0)));
      if (overage.length > 0) checked++;
    }
    expect(checked).toBeGreaterThan(0);
  });

  it("bills a top-up bought this month on next month's invoice", async () => {
    const number = sim.fleet.knownServiceLineNumber;
    expect((await call('POST', `/public/v2/service-lines/${number}/data/top-up`, { productId: 'DATA-TOPUP-50GB', count: 3 })).status).toBe(200);
    await advance(Date.parse('2026-04-02T00:00:00.000Z') - env.nowMs);
    const march: InvoiceLine[] = (await invoice((await invoices()).results[0].invoiceId)).invoiceLines;
    const topUps = march.filter((l) => l.serviceLineNumbers[0] === number && l.productReferenceId === 'DATA-TOPUP-50GB');
    expect(topUps.reduce((sum, l) => sum + l.quantity, 0)).toBeGreaterThanOrEqual(3);
  });

  it('answers 404 for an invoice it never issued', async () => {
    expectFailure(await call('GET', '/public/v2/billing/invoices/INV-DF-US-00000000'), 404, /not found/);
  });
});

describe('contacts', () => {
  const NEW = { firstName: 'Nia', lastName: 'Okafor', roles: ['Technical'], email: 'nia@example.com', phoneNumber: '+1 555 0102', locale: 'en-US' };

  it('adds, changes and removes a contact, and refuses a second one with the same email', async () => {
    const before = (await call('GET', '/public/v2/contacts')).body.content;
    expect(before.results.map((c: { roles: string[] }) => c.roles)).toEqual([['Admin'], ['Billing']]);
    const created = await call('POST', '/public/v2/contacts', NEW);
    expect(created.status).toBe(200);
    const contact = created.body.content;
    expect(contact).toMatchObject({ email: 'nia@example.com', roles: ['Technical'] });
    expectFailure(await call('POST', '/public/v2/contacts', { ...NEW, email: 'NIA@example.com' }), 422, /already on this account/);

    const updated = await call('PUT', `/public/v2/contacts/${contact.subjectId}`, { roles: ['Technical', 'Billing'] });
    expect(updated.body.content.roles).toEqual(['Technical', 'Billing']);
    expect((await call('DELETE', `/public/v2/contacts/${contact.subjectId}`)).status).toBe(200);
    expect((await call('GET', '/public/v2/contacts')).body.content.totalCount).toBe(before.totalCount);
    expectFailure(await call('DELETE', `/public/v2/contacts/${contact.subjectId}`), 404, /not found/);
  });

  it('keeps one Admin contact, and refuses bad bodies', async () => {
    const admin = (await call('GET', '/public/v2/contacts')).body.content.results[0];
    expectFailure(await call('DELETE', `/public/v2/contacts/${admin.subjectId}`), 422, /at least one contact with the Admin role/);
    expectFailure(await call('PUT', `/public/v2/contacts/${admin.subjectId}`, { roles: ['Billing'] }), 422, /at least one contact with the Admin role/);
    expectFailure(await call('PUT', `/public/v2/contacts/${admin.subjectId}`, {}), 400, /roles or phoneNumber/);
    expectFailure(await call('POST', '/public/v2/contacts', { ...NEW, email: 'not-an-email' }, false), 400, /email/);
    expectFailure(await call('POST', '/public/v2/contacts', { ...NEW, roles: [] }, false), 400, /roles/);
  });
});

describe('managed accounts', () => {
  it('creates managed customers with their service accounts, and shows them in the tree and the query', async () => {
    const body = { firstName: 'Ana', lastName: 'Ruiz', email: 'ana@ruiz.example', phone: '+34 600 000 000', locale: 'es', businessName: 'Ruiz Agro' };
    const created = (await call('POST', '/public/v2/managed/customers', body)).body.content;
    expect(created.accountNumber).toMatch(/^ACC-\d{6}-\d{5}-\d{2}$/);
    expect(created.serviceAccountClientId).toBeTruthy();
    expect(created.serviceAccountSecret).toMatch(/^[0-9a-f]{16}$/);
    const second = (await call('POST', '/public/v2/managed/customers', { ...body, businessName: null, firstName: 'Ben' })).body.content;

    const tree = (await call('GET', '/public/v2/managed/accounts/tree')).body.content;
    expect(tree.rootAccountNumber).toBe(sim.fleet.accountNumber);
    expect(tree.tree[sim.fleet.accountNumber].children).toEqual([created.accountNumber, second.accountNumber]);
    expect(tree.tree[second.accountNumber]).toMatchObject({ accountName: 'Ben Ruiz', managerAccountNumber: sim.fleet.accountNumber, children: [] });

    const found = (await call('GET', '/public/v2/managed/accounts?searchString=agro')).body.content;
    expect(found).toEqual({ nextKey: null, results: [{ accountNumber: created.accountNumber, regionCode: 'US', accountName: 'Ruiz Agro' }] });
    const byNumber = (await call('GET', `/public/v2/managed/accounts?accountNumbers=${second.accountNumber}&accountNumbers=ACC-000000-00000-00`)).body.content;
    expect(byNumber.results.map((a: { accountNumber: string }) => a.accountNumber)).toEqual([second.accountNumber]);
  });

  it('refuses an ancestor outside the hierarchy (404), a cursor it did not give and a bad body (400)', async () => {
    expectFailure(await call('GET', '/public/v2/managed/accounts/tree?ancestorAccountNumber=ACC-000000-00000-00'), 404, /not in this account's hierarchy/);
    expectFailure(await call('GET', '/public/v2/managed/accounts?cursor=page-2'), 400, /cursor/);
    expectFailure(await call('POST', '/public/v2/managed/customers', { firstName: 'A' }, false), 400, /lastName/);
  });
});

describe('the data pool', () => {
  it('lists the pool; a line set to consume from it shows in its usage; automatic top-up toggles', async () => {
    const pools = (await call('GET', '/public/v2/data-pools')).body.content.results;
    expect(pools).toEqual([expect.objectContaining({ automaticTopUpEnabled: false, restricted: false, dataProductType: 'Land' })]);
    const pool = pools[0];
    const number = sim.fleet.knownServiceLineNumber;
    expect((await call('PATCH', `/public/v2/service-lines/${number}/consume-from-pool?consumeFromPool=true`)).status).toBe(200);
    const usage = (await call('GET', `/public/v2/data-pools/usage?dataPoolIds=${pool.dataPoolId}`)).body.content.results[0];
    expect(usage.dataBlocks[0].serviceLineUsage).toEqual([{ serviceLineNumber: number, consumedAmountGB: expect.any(Number) }]);
    expect(usage.dataBlocks[0].totalAmountGB).toBe(5000);

    expect((await call('POST', `/public/v2/data-pools/${pool.dataPoolId}/set-automatic-top-up?enabled=true`)).status).toBe(200);
    expect((await call('GET', '/public/v2/data-pools')).body.content.results[0].automaticTopUpEnabled).toBe(true);
    expect((await call('PATCH', `/public/v2/service-lines/${number}/consume-from-pool?consumeFromPool=false`)).status).toBe(200);
    expect((await call('GET', '/public/v2/data-pools/usage')).body.content.results[0].dataBlocks[0].serviceLineUsage).toEqual([]);
  });

  it('puts a new line on the pool when it is created with it, and refuses an unknown pool or blocks beside it', async () => {
    const pool = (await call('GET', '/public/v2/data-pools')).body.content.results[0];
    const address = (await call('POST', '/public/v2/addresses', { addressLines: ['1 Pool Road'], formattedAddress: '1 Pool Road, Moab', latitude: 38.57, longitude: -109.55 })).body.content;
    const created = await call('POST', '/public/v2/service-lines', { addressReferenceId: address.addressReferenceId, productReferenceId: 'SUB-PRIORITY-BLOCKS', dataBlockProducts: { dataPoolId: pool.dataPoolId } });
    expect(created.status).toBe(201);
    const usage = (await call('GET', '/public/v2/data-pools/usage')).body.content.results[0];
    expect(usage.dataBlocks[0].serviceLineUsage.map((u: { serviceLineNumber: string }) => u.serviceLineNumber)).toEqual([created.body.content.serviceLineNumber]);
    const both = { dataPoolId: pool.dataPoolId, recurringDataBlocks: [{ productId: 'DATA-BLOCK-PRIORITY-50GB', count: 1 }] };
    expectFailure(await call('POST', '/public/v2/service-lines', { addressReferenceId: address.addressReferenceId, productReferenceId: 'SUB-PRIORITY-BLOCKS', dataBlockProducts: both }), 422, /cannot be used together/);
    expectFailure(await call('POST', '/public/v2/data-pools/POOL-NONE/set-automatic-top-up'), 404, /not found/);
    expectFailure(await call('PATCH', `/public/v2/service-lines/${sim.fleet.examples().inactiveServiceLineNumber}/consume-from-pool`), 422, /not active/);
    expectFailure(await call('GET', '/public/v2/data-pools/usage?asOfTimestamp=2030-01-01T00:00:00Z'), 400, /future/);
  });
});
