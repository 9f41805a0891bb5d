// Provider billing over HTTP against the real simulator: the balance and invoices as the provider
// answers them, an invoice's lines linked to the inventory's terminals, and the lines billed for
// service lines the inventory does not have counted apart; unknown invoices 404, bad ids 400.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROVIDER_BILLING_MESSAGES as M, type ProviderBillingWire, type ProviderInvoiceWire } from '../../src/domain/provider-billing';
import type { RunningSimulator } from '../../server/simulator';
import { insertServiceLines, insertTerminals, idOf, terminalRow } from '../fixtures/terminals';
import { createTestContext, type TestContext } from './helpers';
import { SYNC_TEST_TIME, fastClient, startFleet } from './terminal-sync-fixtures';

let sim: RunningSimulator;
let ctx: TestContext;
let reader: string;
let held: string;

beforeAll(async () => {
  sim = await startFleet({ terminals: 30 });
  ctx = await createTestContext({ now: SYNC_TEST_TIME, env: { SYNC_INTERVAL: 'off' }, provider: { kind: 'simulator', client: () => fastClient(sim) } });
  const user = await ctx.createAdmin({ role: 'user' });
  reader = (await ctx.login('admin', user.email, user.password)).token!;
  // One line of the provider's is in the inventory, with a terminal on it.
  held = sim.fleet.knownServiceLineNumber;
  await insertServiceLines(ctx.database.db, [{ serviceLineNumber: held }]);
  await insertTerminals(ctx.database.db, [terminalRow({ userTerminalId: idOf(1), serviceLineNumber: held })]);
});
afterAll(async () => {
  await ctx.close();
  await sim.close();
});

const get = (url: string) => ctx.request({ method: 'GET', url: `/api/v1${url}`, token: reader });

describe('provider billing', () => {
  it("answers the provider's balance and its invoices, newest first", async () => {
    const res = await get('/billing/provider');
    expect(res.statusCode).toBe(200);
    const data = (res.json() as { data: ProviderBillingWire }).data;
    expect(data.invoices).toHaveLength(12);
    expect(data.invoices[0]).toMatchObject({ invoiceDate: '2026-03-01T00:00:00.000Z', currency: 'USD', status: 'Outstanding' });
    expect(data.balances).toEqual([{ currency: 'USD', dueAmount: data.invoices[0]!.dueAmount }]);
  });

  it("links each line to the inventory's terminal and counts the lines the inventory does not have", async () => {
    const { invoices } = ((await get('/billing/provider')).json() as { data: ProviderBillingWire }).data;
    const res = await get(`/billing/provider/invoices/${invoices[0]!.invoiceId}`);
    expect(res.statusCode).toBe(200);
    const invoice = (res.json() as { data: ProviderInvoiceWire }).data;
    const ours = invoice.lines.filter((line) => line.serviceLines.some((sl) => sl.serviceLineNumber === held));
    expect(ours.length).toBeGreaterThan(0);
    expect(ours.every((line) => line.serviceLines[0]!.userTerminalId === idOf(1))).toBe(true);
    const others = invoice.lines.filter((line) => line.serviceLines.every((sl) => sl.userTerminalId === null));
    expect(invoice.unmatched).toEqual({ lines: others.length, amount: Math.round(others.reduce((sum, l) => sum + l.subTotal + l.taxAmount, 0) * 100) / 100 });
    expect(invoice.unmatched.lines).toBe(invoice.lines.length - ours.length);
  });

  it('answers 404 for an invoice the provider never issued and 400 for a malformed id', async () => {
    const unknown = await get('/billing/provider/invoices/INV-DF-US-00000000');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({ success: false, message: M.invoiceNotFound });
    expect((await get('/billing/provider/invoices/..%2Fetc')).statusCode).toBe(400);
  });
});
