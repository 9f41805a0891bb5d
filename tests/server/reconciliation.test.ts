// Reconciliation over HTTP against the real simulator: the provider's invoices imported
// once, to the minor unit, their status refreshed; the board of last cycle, once its statements
// are closed and its invoice imported, lists each seeded leak with its amount — a line the
// provider bills that nobody holds, a blocked customer's line, a negotiated price under the
// provider's, top-ups on the invoice and not on the statement, the invoice's line for no line of
// the inventory, the line the invoice leaves off — and its margin is what was billed less what the
// provider charges. Each fix does what it says and leaves the leak resolved; a user-role portal
// user reads but cannot fix; bad input is a 4xx.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BILLING_MESSAGES as M, billedDays, cycleBounds, type LeakKind, type LeakWire, type ReconciliationWire } from '../../src/domain/billing';
import { prorate } from '../../src/domain/money';
import type { SyncJob } from '../../src/domain/terminals';
import type { StarlinkClient } from '../../server/provider';
import type { ProviderInvoiceDetail, ProviderInvoiceLine, ProviderInvoiceSummary } from '../../server/provider/schemas';
import { RECONCILIATION_SERVER_MESSAGES, invoiceCycle, invoiceRows } from '../../server/services/billing/reconciliation';
import type { RunningSimulator } from '../../server/simulator';
import { leftOffLine } from '../../server/simulator/account';
import { createTestContext, type TestContext } from './helpers';
import { SYNC_TEST_TIME, fastClient, runIdsOf, startFleet, waitForLatest, waitForRun } from './terminal-sync-fixtures';

const LAST = '2026-02';
const FEBRUARY_MS = Date.parse('2026-02-01T00:00:00.000Z');
const NEXT_CYCLE_START = '2026-04-01';
/** The list's top-up price: what an unbilled block costs the customer. */
const TOP_UP_MINOR = 6000;

let sim: RunningSimulator;
let provider: StarlinkClient;
let ctx: TestContext;
let admin: string;
let viewer: string;
let invoice: ProviderInvoiceDetail & { amount: number };
const customers = {} as Record<'good' | 'blocked' | 'cheap', string>;
/** The lines each seeded leak is about. */
const seeded = {} as Record<'cheap' | 'blocked' | 'unassigned' | 'topUp' | 'priority' | 'leftOff', string>;
let cheapPriceId = '';

const db = () => ctx.database.db;
const rows = async <T>(query: ReturnType<typeof sql>) => ((await db().execute(query)) as unknown as { rows: T[] }).rows;
const cents = (amount: number) => Math.round(amount * 100);
const linesOf = (number: string) => invoice.invoiceLines.filter((l) => l.serviceLineNumbers.includes(number));
const costOf = (number: string) => linesOf(number).reduce((sum, l) => sum + cents(l.subTotal + l.taxAmount), 0);
const isTopUp = (l: ProviderInvoiceLine) => /top-up/i.test(l.productDescription ?? '');

const api = (method: 'GET' | 'POST', url: string, token: string, payload?: unknown) =>
  ctx.request({ method, url: `/api/v1${url}`, token, ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }) });
async function board(cycle = LAST): Promise<ReconciliationWire> {
  const res = await api('GET', `/billing/reconciliation?cycle=${cycle}`, viewer);
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as { data: ReconciliationWire }).data;
}
const leakOf = (wire: ReconciliationWire, kind: LeakKind, key: string) => wire.leaks.find((l) => l.kind === kind && l.key === key);
const fix = (kind: LeakKind, key: string, action: string, token = admin, note?: string) => api('POST', '/billing/reconciliation/fix', token, { cycle: LAST, kind, key, action, ...(note ? { note } : {}) });

beforeAll(async () => {
  sim = await startFleet({ terminals: 90 });
  provider = fastClient(sim);
  ctx = await createTestContext({ now: SYNC_TEST_TIME, env: { SYNC_INTERVAL: 'off', USAGE_HISTORY_CYCLES: '2' }, provider: { kind: 'simulator', client: () => provider } });
  const created = await ctx.createAdmin({ name: 'Rita Reconciler' });
  admin = (await ctx.login('admin', created.email, created.password)).token!;
  const user = await ctx.createAdmin({ role: 'user' });
  viewer = (await ctx.login('admin', user.email, user.password)).token!;

  // The provider's inventory, products and usage, as the portal has them after a sync.
  const usageRuns = await runIdsOf(db(), 'usage');
  const res = await ctx.request({ method: 'POST', url: '/api/v1/terminals/sync', token: admin });
  expect(res.statusCode).toBe(202);
  expect(await waitForRun(ctx, admin, (res.json().data as SyncJob).id, 60_000)).toMatchObject({ status: 'succeeded' });
  await waitForLatest(db(), 'usage', 60_000, usageRuns);

  // Last cycle's invoice, read from the provider the way the import reads it.
  const summary = (await provider.listInvoices()).items.find((i) => i.description === `Starlink service ${LAST}`)!;
  invoice = { ...(await provider.getInvoice(summary.invoiceId)), amount: summary.amount };

  // Lines to hand out: on the invoice for a whole month of the 50 GB plan and nothing else, still
  // running, with a terminal in the inventory.
  const withTerminal = new Set((await rows<{ line: string }>(sql`SELECT DISTINCT service_line_number AS line FROM terminals WHERE removed_at IS NULL AND service_line_number IS NOT NULL`)).map((r) => r.line));
  const running = (n: string) => withTerminal.has(n) && sim.fleet.serviceLine(n)?.active === true && !sim.fleet.serviceLine(n)?.endDate;
  const numbers = [...new Set(invoice.invoiceLines.flatMap((l) => l.serviceLineNumbers))].filter(running).sort();
  const plain = numbers.filter((n) => {
    const own = linesOf(n);
    return own.length === 1 && own[0]!.productReferenceId === 'SUB-METERED-50GB' && own[0]!.quantity === 1;
  });
  expect(plain.length).toBeGreaterThanOrEqual(3);
  [seeded.cheap, seeded.blocked, seeded.unassigned] = plain as [string, string, string];
  seeded.topUp = numbers.find((n) => !plain.includes(n) && linesOf(n).some(isTopUp) && linesOf(n).some((l) => l.productReferenceId?.startsWith('SUB-METERED')))!;
  seeded.priority = numbers.find((n) => n !== seeded.topUp && linesOf(n).some((l) => l.productReferenceId === 'SUB-PRIORITY-BLOCKS' && l.quantity === 1))!;
  seeded.leftOff = leftOffLine(sim.fleet.cycleCharges(FEBRUARY_MS))!;
  expect(seeded.topUp).toBeDefined();
  expect(seeded.priority).toBeDefined();
  expect(seeded.leftOff).not.toBeNull();

  // Customers: one in good standing, one blocked, one with a negotiated price under the provider's.
  customers.good = (await ctx.createCustomer({ name: 'Good Standing' })).id;
  customers.blocked = (await ctx.createCustomer({ name: 'Blocked Co', blockedEnabled: true, blockedAt: new Date(SYNC_TEST_TIME), blockedReason: 'Unpaid' })).id;
  customers.cheap = (await ctx.createCustomer({ name: 'Cheap Deal' })).id;
  const hand = async (line: string, customerId: string) =>
    db().execute(sql`UPDATE terminals SET assigned_customer_id = ${customerId}, assigned_at = ${SYNC_TEST_TIME}::timestamptz WHERE service_line_number = ${line} AND removed_at IS NULL`);
  await hand(seeded.cheap, customers.cheap);
  await hand(seeded.blocked, customers.blocked);
  await hand(seeded.topUp, customers.good);
  await hand(seeded.priority, customers.good);

  // The list prices the metered plans at twice the provider's; the Priority plan has no price.
  const prices = ctx.app.repos.billingPrices;
  for (const [product, monthly] of [['SUB-METERED-50GB', 13_000], ['SUB-METERED-1TB', 33_000]] as const) {
    await prices.insertPrice({ productReferenceId: product, currency: 'USD', monthlyMinor: monthly, overagePerGbMinor: 200, topUpMinor: TOP_UP_MINOR, effectiveFrom: '2026-01-01', createdBy: null });
  }
  cheapPriceId = (
    await prices.insertCustomerPrice({
      customerId: customers.cheap,
      productReferenceId: 'SUB-METERED-50GB',
      effectiveFrom: '2026-01-01',
      effectiveUntil: null,
      discountBp: null,
      monthlyMinor: 1000,
      overagePerGbMinor: null,
      topUpMinor: null,
      note: 'Launch deal',
      createdBy: null,
    })
  ).id;

  // Last cycle's statements, closed (the portal never saw its top-ups: it copies them only while a cycle runs).
  await ctx.app.services.statements.close(LAST);
}, 120_000);

afterAll(async () => {
  await ctx?.close();
  await sim?.close();
});

describe('importing the provider invoices', () => {
  it('imports each invoice once, to the minor unit, with one row per invoice line and service line', async () => {
    // The billing job reads the invoices after each sync: what it has not imported yet, the call does.
    const [already] = await rows<{ n: number }>(sql`SELECT count(*)::int AS n FROM provider_invoices`);
    const first = await api('POST', '/billing/invoices/import', admin);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json().data).toEqual({ imported: 12 - already!.n, updated: 0 });
    const again = await api('POST', '/billing/invoices/import', admin);
    expect(again.json().data).toEqual({ imported: 0, updated: 0 });

    const [stored] = await rows<{ cycle: string; currency: string; amount_minor: string; lines: string; total: string }>(sql`
      SELECT i.cycle, i.currency, i.amount_minor::text AS amount_minor, count(l.*)::text AS lines, coalesce(sum(l.amount_minor), 0)::text AS total
      FROM provider_invoices i LEFT JOIN provider_invoice_lines l ON l.invoice_id = i.invoice_id
      WHERE i.invoice_id = ${invoice.invoiceId} GROUP BY i.invoice_id`);
    expect(stored).toEqual({ cycle: LAST, currency: 'USD', amount_minor: String(cents(invoice.amount)), lines: String(invoice.invoiceLines.length), total: String(cents(invoice.amount)) });
    const [count] = await rows<{ n: number }>(sql`SELECT count(DISTINCT cycle)::int AS n FROM provider_invoices`);
    expect(count!.n).toBe(12);
    const audits = await rows<{ n: number }>(sql`SELECT count(*)::int AS n FROM audit_log WHERE action = 'billing.provider_invoice_imported'`);
    expect(audits[0]!.n).toBe(12);
  });

  it("refreshes an imported invoice's status when the provider's has changed", async () => {
    await db().execute(sql`UPDATE provider_invoices SET status = 'Outstanding' WHERE cycle = '2026-01'`);
    const res = await api('POST', '/billing/invoices/import', admin);
    expect(res.json().data).toEqual({ imported: 0, updated: 1 });
    const [row] = await rows<{ status: string }>(sql`SELECT status FROM provider_invoices WHERE cycle = '2026-01'`);
    expect(row!.status).toBe('Paid');
  });

  it('is for administrators only', async () => {
    expect((await api('POST', '/billing/invoices/import', viewer)).statusCode).toBe(403);
  });
});

describe('the board of a cycle with its invoice', () => {
  it("costs the cycle at its invoice and makes the margin what the statements bill less the provider's cost", async () => {
    const wire = await board();
    expect(wire).toMatchObject({ cycle: LAST, currency: 'USD', costEstimated: false, invoice: { invoiceId: invoice.invoiceId, amountMinor: cents(invoice.amount) } });
    const [billed] = await rows<{ total: string; n: number }>(sql`SELECT coalesce(sum(total_minor), 0)::text AS total, count(*)::int AS n FROM billing_statements WHERE cycle = ${LAST} AND currency = 'USD'`);
    expect(billed!.n).toBeGreaterThan(0);
    expect(wire.totals).toEqual({ providerCostMinor: cents(invoice.amount), billedMinor: Number(billed!.total), marginMinor: Number(billed!.total) - cents(invoice.amount), statements: billed!.n });
  });

  it('lists a line the provider bills that no customer holds, at its cost', async () => {
    const leak = leakOf(await board(), 'unassigned', seeded.unassigned);
    expect(leak).toMatchObject({ serviceLineNumber: seeded.unassigned, customerId: null, amountMinor: 6500, fixes: ['cancel_line', 'mark_checked'], resolution: null });
  });

  it("lists a blocked customer's line at its cost", async () => {
    const leak = leakOf(await board(), 'inactive_customer', seeded.blocked);
    expect(leak).toMatchObject({ customerId: customers.blocked, customerName: 'Blocked Co', amountMinor: costOf(seeded.blocked) });
    expect(leak!.detail).toContain('blocked');
  });

  it("lists a negotiated price under the provider's by the difference, to be ended", async () => {
    const leak = leakOf(await board(), 'below_cost', seeded.cheap);
    // The provider charges 65.00 for the month; the customer was billed their 10.00.
    expect(leak).toMatchObject({ customerId: customers.cheap, amountMinor: 6500 - 1000, fixes: ['end_customer_price'] });
  });

  it('lists a line on a product the list does not price as below cost, to raise the list price', async () => {
    const planCost = linesOf(seeded.priority)
      .filter((l) => !isTopUp(l))
      .reduce((sum, l) => sum + cents(l.subTotal + l.taxAmount), 0);
    expect(leakOf(await board(), 'below_cost', seeded.priority)).toMatchObject({ customerId: customers.good, amountMinor: planCost, fixes: ['raise_list_price'] });
  });

  it("lists the top-ups on the invoice that the customer's statement lacks, at the customer's top-up price", async () => {
    const blocks = linesOf(seeded.topUp)
      .filter(isTopUp)
      .reduce((sum, l) => sum + l.quantity, 0);
    expect(blocks).toBeGreaterThan(0);
    const leak = leakOf(await board(), 'unbilled_top_up', seeded.topUp);
    expect(leak).toMatchObject({ customerId: customers.good, amountMinor: blocks * TOP_UP_MINOR, fixes: ['bill_top_ups'] });
  });

  it('lists the invoice line for a line the inventory does not have, keyed by invoice and position', async () => {
    const wire = await board();
    const unmatched = wire.leaks.filter((l) => l.kind === 'invoice_unmatched');
    const position = invoice.invoiceLines.length - 1;
    expect(unmatched).toEqual([
      expect.objectContaining({ key: `${invoice.invoiceId}:${position}`, serviceLineNumber: invoice.invoiceLines[position]!.serviceLineNumbers[0], amountMinor: 6500, fixes: ['dispute'] }),
    ]);
  });

  it('lists the inventory line the invoice left off, at its estimated cost', async () => {
    const leak = leakOf(await board(), 'missing_from_invoice', seeded.leftOff);
    const line = sim.fleet.serviceLine(seeded.leftOff)!;
    const price = sim.fleet.products().find((p) => p.productReferenceId === line.productReferenceId)!.price;
    // The provider's price of its plan for the days of February it had service.
    const days = billedDays({ start: line.startDate!, end: line.endDate ? new Date(Date.parse(line.endDate) + 1000).toISOString() : null }, LAST);
    expect(leak).toMatchObject({ serviceLineNumber: seeded.leftOff, amountMinor: prorate(cents(price), days, cycleBounds(LAST).days), fixes: ['mark_checked'] });
    expect(leak!.amountMinor).toBeGreaterThan(0);
  });

  it('sorts the leaks by amount and counts the open ones per kind', async () => {
    const wire = await board();
    const amounts = wire.leaks.map((l) => l.amountMinor);
    expect(amounts).toEqual([...amounts].sort((a, b) => b - a));
    for (const { kind, count, amountMinor } of wire.byKind) {
      const open = wire.leaks.filter((l) => l.kind === kind && l.resolution === null);
      expect([kind, count, amountMinor]).toEqual([kind, open.length, open.reduce((s, l) => s + l.amountMinor, 0)]);
    }
    expect(wire.openLeakMinor).toBe(wire.leaks.filter((l) => l.resolution === null).reduce((s, l) => s + l.amountMinor, 0));
  });
});

describe('a cycle without its invoice', () => {
  it('says so and estimates the cost from the provider prices, without the invoice-only leaks', async () => {
    const res = await api('GET', '/billing/reconciliation', viewer);
    expect(res.statusCode).toBe(200);
    const wire = (res.json() as { data: ReconciliationWire }).data;
    expect(wire).toMatchObject({ cycle: '2026-03', invoice: null, costEstimated: true });
    expect(wire.totals.providerCostMinor).toBeGreaterThan(0);
    expect(wire.leaks.filter((l) => ['unbilled_top_up', 'invoice_unmatched', 'missing_from_invoice'].includes(l.kind))).toEqual([]);
    expect(wire.byKind.map((k) => k.kind)).toEqual(['unassigned', 'inactive_customer', 'below_cost']);
    // The unassigned line runs the whole month on the 50 GB plan: 65.00 by the provider's price.
    expect(leakOf(wire, 'unassigned', seeded.unassigned)).toMatchObject({ amountMinor: 6500 });
  });
});

describe('fixing a leak', () => {
  const ok = async (res: Awaited<ReturnType<typeof fix>>) => {
    expect(res.statusCode, res.body).toBe(200);
    return (res.json() as { data: { leak: LeakWire } }).data.leak;
  };

  it('refuses a user-role portal user', async () => {
    expect((await fix('invoice_unmatched', `${invoice.invoiceId}:${invoice.invoiceLines.length - 1}`, 'dispute', viewer)).statusCode).toBe(403);
  });

  it('bills the missing top-ups as a correction pending for the customer', async () => {
    const before = await board();
    const amount = leakOf(before, 'unbilled_top_up', seeded.topUp)!.amountMinor;
    const leak = await ok(await fix('unbilled_top_up', seeded.topUp, 'bill_top_ups'));
    expect(leak.resolution).toMatchObject({ action: 'bill_top_ups', by: 'Rita Reconciler' });
    const pending = await ctx.app.repos.billingPrices.adjustments({ customerId: customers.good, status: 'pending' });
    expect(pending).toEqual([expect.objectContaining({ amountMinor: amount, currency: 'USD', source: 'reconciliation' })]);
    const after = await board();
    expect(leakOf(after, 'unbilled_top_up', seeded.topUp)!.resolution).toMatchObject({ action: 'bill_top_ups' });
    expect(after.openLeakMinor).toBe(before.openLeakMinor - amount);
    // Twice would bill twice: the second is refused.
    const again = await fix('unbilled_top_up', seeded.topUp, 'bill_top_ups');
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe(RECONCILIATION_SERVER_MESSAGES.alreadyResolved);
  });

  it("cancels an unassigned line at the end of its cycle at the provider", async () => {
    const leak = await ok(await fix('unassigned', seeded.unassigned, 'cancel_line', admin, 'Nobody uses this dish'));
    expect(leak.resolution).toMatchObject({ action: 'cancel_line', note: 'Nobody uses this dish' });
    expect(sim.fleet.serviceLine(seeded.unassigned)!.endDate).not.toBeNull();
    const [line] = await rows<{ end_date: string | null }>(sql`SELECT end_date::text AS end_date FROM service_lines WHERE service_line_number = ${seeded.unassigned}`);
    expect(line!.end_date).not.toBeNull();
    const audits = await rows<{ action: string }>(sql`SELECT action FROM audit_log WHERE target_id IN (${seeded.unassigned}, ${`${LAST}/unassigned/${seeded.unassigned}`}) ORDER BY id`);
    expect(audits.map((a) => a.action)).toEqual(['service_line.deactivation_scheduled', 'billing.leak_fixed']);
    expect(leakOf(await board(), 'unassigned', seeded.unassigned)!.resolution).toMatchObject({ action: 'cancel_line' });
  });

  it("ends the customer's price from the first day of the next cycle", async () => {
    await ok(await fix('below_cost', seeded.cheap, 'end_customer_price'));
    const [row] = await rows<{ effective_until: string }>(sql`SELECT effective_until::text AS effective_until FROM billing_customer_prices WHERE id = ${cheapPriceId}`);
    expect(row!.effective_until).toBe(NEXT_CYCLE_START);
    expect(leakOf(await board(), 'below_cost', seeded.cheap)!.resolution).toMatchObject({ action: 'end_customer_price' });
  });

  it("raises the list price to the provider's monthly cost from the next cycle", async () => {
    await ok(await fix('below_cost', seeded.priority, 'raise_list_price'));
    const [row] = await rows<{ monthly: string; currency: string }>(sql`
      SELECT monthly_minor::text AS monthly, currency FROM billing_prices WHERE product_reference_id = 'SUB-PRIORITY-BLOCKS' AND effective_from = ${NEXT_CYCLE_START}::date`);
    expect(row).toEqual({ monthly: String(cents(sim.fleet.plan('SUB-PRIORITY-BLOCKS')!.price)), currency: 'USD' });
  });

  it('marks an unmatched invoice line disputed and the left-off line checked', async () => {
    const key = `${invoice.invoiceId}:${invoice.invoiceLines.length - 1}`;
    await ok(await fix('invoice_unmatched', key, 'dispute'));
    await ok(await fix('missing_from_invoice', seeded.leftOff, 'mark_checked'));
    const wire = await board();
    expect(leakOf(wire, 'invoice_unmatched', key)!.resolution).toMatchObject({ action: 'dispute' });
    expect(leakOf(wire, 'missing_from_invoice', seeded.leftOff)!.resolution).toMatchObject({ action: 'mark_checked' });
    expect(wire.byKind.find((k) => k.kind === 'invoice_unmatched')).toEqual({ kind: 'invoice_unmatched', count: 0, amountMinor: 0 });
  });

  it('refuses a leak not on the board (404) and a fix the leak does not take (400)', async () => {
    const missing = await fix('unassigned', 'AST-000000-00000-00', 'mark_checked');
    expect(missing.statusCode).toBe(404);
    expect(missing.json().message).toBe(M.leakNotFound);
    const wrong = await fix('inactive_customer', seeded.blocked, 'bill_top_ups');
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().message).toBe(M.fixNotAllowed);
  });
});

describe('bad input', () => {
  it('answers 400 for a cycle that is not a month, or not one yet', async () => {
    for (const cycle of ['2026-13', '26-02', 'last', '0099-12']) {
      const res = await api('GET', `/billing/reconciliation?cycle=${cycle}`, viewer);
      expect(res.statusCode, cycle).toBe(400);
      expect(res.json().message).toContain(M.cycleInvalid);
    }
    const ahead = await api('GET', '/billing/reconciliation?cycle=2026-04', viewer);
    expect(ahead.statusCode).toBe(400);
    expect(ahead.json().message).toBe(RECONCILIATION_SERVER_MESSAGES.cycleAhead);
    const body = await api('POST', '/billing/reconciliation/fix', admin, { cycle: 'May', kind: 'unassigned', key: 'x', action: 'mark_checked' });
    expect(body.statusCode).toBe(400);
  });

  it('answers 400 for an unknown kind or action and for unknown fields', async () => {
    for (const payload of [
      { cycle: LAST, kind: 'lost', key: 'x', action: 'mark_checked' },
      { cycle: LAST, kind: 'unassigned', key: 'x', action: 'shrug' },
      { cycle: LAST, kind: 'unassigned', key: '', action: 'mark_checked' },
      { cycle: LAST, kind: 'unassigned', key: 'x', action: 'mark_checked', amount: 5 },
    ]) {
      expect((await api('POST', '/billing/reconciliation/fix', admin, payload)).statusCode, JSON.stringify(payload)).toBe(400);
    }
  });
});

describe('a board per provider account', () => {
  // Last: it files one line under a second account, in another currency, which the boards above do not expect.
  it("reads each account's lines and invoices in its own currency, and lists what is billed in another apart", async () => {
    const before = await board();
    const moved = seeded.topUp;
    const [second] = await rows<{ id: number }>(sql`
      INSERT INTO provider_accounts (name, kind, api_url, token_url, client_id, enabled, currency)
      VALUES ('Demo Brasil', 'starlink', 'https://provider.invalid/api', 'https://provider.invalid/token', 'br', false, 'BRL') RETURNING id`);
    await db().execute(sql`UPDATE service_lines SET account_id = ${second!.id} WHERE service_line_number = ${moved}`);
    await db().execute(sql`UPDATE terminals SET account_id = ${second!.id} WHERE service_line_number = ${moved}`);
    const [billed] = await rows<{ total: string }>(sql`
      SELECT sum(i.amount_minor)::text AS total FROM billing_statement_items i JOIN billing_statements s ON s.id = i.statement_id
      WHERE s.cycle = ${LAST} AND i.service_line_number = ${moved} AND i.kind IN ('plan', 'overage', 'top_up')`);

    const res = await api('GET', `/billing/reconciliation?cycle=${LAST}&account_id=${second!.id}`, viewer);
    expect(res.statusCode, res.body).toBe(200);
    const brasil = (res.json() as { data: ReconciliationWire }).data;
    // The line is billed in USD and costs in BRL: listed, not compared, and no leak of billing.
    expect(brasil).toMatchObject({ account: { id: second!.id, name: 'Demo Brasil' }, currency: 'BRL', invoice: null });
    expect(brasil.otherCurrencies).toEqual([{ currency: 'USD', lines: 1, billedMinor: Number(billed!.total) }]);
    expect(brasil.leaks.filter((l) => l.serviceLineNumber === moved && l.kind !== 'unassigned')).toEqual([]);
    expect(brasil.totals).toMatchObject({ billedMinor: 0, statements: 0 });

    // The first account's board no longer counts the line's share of its statement, and its
    // invoice's charge for the line is for a line its own inventory does not have.
    const us = await board();
    expect(us.account).toEqual({ id: 1, name: expect.any(String) });
    expect(us.totals.billedMinor).toBeLessThan(before.totals.billedMinor);
    expect(us.leaks.some((l) => l.kind === 'invoice_unmatched' && l.serviceLineNumber === moved)).toBe(true);
    expect(us.leaks.some((l) => l.kind === 'below_cost' && l.serviceLineNumber === moved)).toBe(false);
  });

  it('answers 404 for an account the portal does not have and 400 for one that is not an id', async () => {
    const unknown = await api('GET', '/billing/reconciliation?account_id=9999', viewer);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().message).toBe(RECONCILIATION_SERVER_MESSAGES.accountNotFound);
    for (const id of ['0', 'two', '1.5']) expect((await api('GET', `/billing/reconciliation?account_id=${id}`, viewer)).statusCode, id).toBe(400);
    expect((await api('POST', '/billing/reconciliation/fix', admin, { cycle: LAST, kind: 'unassigned', key: 'x', action: 'mark_checked', accountId: 0 })).statusCode).toBe(400);
  });
});

describe("reading the provider's invoice", () => {
  const summary = (overrides: Partial<ProviderInvoiceSummary> = {}): ProviderInvoiceSummary => ({
    invoiceId: 'INV-1',
    description: null,
    currency: 'USD',
    amount: 100.01,
    dueAmount: 0,
    invoiceDate: '2026-03-01T00:00:00.000Z',
    dueDate: null,
    status: 'Paid',
    ...overrides,
  });
  const line = (overrides: Partial<ProviderInvoiceLine> = {}): ProviderInvoiceLine => ({
    productReferenceId: 'SUB-METERED-50GB',
    productDescription: 'Local Priority 50 GB',
    serviceName: 'Starlink',
    serviceLineNumbers: ['AST-1'],
    quantity: 1,
    unitPrice: 100,
    taxAmount: 0,
    subTotal: 100,
    servicePeriodStartDate: '2026-02-01T00:00:00.000Z',
    servicePeriodEndDate: '2026-03-01T00:00:00.000Z',
    ...overrides,
  });
  const detail = (lines: ProviderInvoiceLine[], overrides: Partial<ProviderInvoiceDetail> = {}): ProviderInvoiceDetail => ({
    invoiceId: 'INV-1',
    orderReferenceId: null,
    currency: 'USD',
    dueAmount: 0,
    paidAmount: 0,
    invoiceDate: '2026-03-01T00:00:00.000Z',
    dueDate: null,
    invoiceLines: lines,
    ...overrides,
  });

  it('splits a line naming several service lines evenly, to the minor unit, and keeps a line naming none', () => {
    const rows = invoiceRows(summary(), detail([line({ serviceLineNumbers: ['AST-1', 'AST-2', 'AST-3'], subTotal: 100, taxAmount: 0.01 }), line({ serviceLineNumbers: [], subTotal: -5 })]));
    expect('problem' in rows).toBe(false);
    if ('problem' in rows) return;
    expect(rows.invoice).toMatchObject({ cycle: '2026-02', currency: 'USD', amountMinor: 10_001 });
    expect(rows.lines.map((l) => [l.position, l.serviceLineNumber, l.amountMinor])).toEqual([
      [0, 'AST-1', 3334],
      [1, 'AST-2', 3334],
      [2, 'AST-3', 3333],
      [3, null, -500],
    ]);
  });

  it('takes amounts exactly in minor units of the currency, rounding by the one rule only past its decimals', () => {
    const yen = invoiceRows(summary({ currency: 'JPY', amount: 1234 }), detail([line({ subTotal: 1234 })], { currency: 'JPY' }));
    expect('problem' in yen ? yen.problem : yen.lines[0]!.amountMinor).toBe(1234);
    // 0.125 and 0.135 USD: halves go to the even cent.
    const extra = invoiceRows(summary({ amount: 0.26 }), detail([line({ subTotal: 0.125 }), line({ subTotal: 0.135 })]));
    expect('problem' in extra ? extra.problem : extra.lines.map((l) => l.amountMinor)).toEqual([12, 14]);
  });

  it('refuses an amount that is not money and a currency that is not a code', () => {
    const bad = invoiceRows(summary(), detail([line({ subTotal: Number.NaN })]));
    expect('problem' in bad && bad.problem).toMatch(/INV-1: an amount is not money/);
    const huge = invoiceRows(summary({ amount: 1e300 }), detail([]));
    expect('problem' in huge).toBe(true);
    const currency = invoiceRows(summary({ currency: 'dollars' }), detail([], { currency: null }));
    expect('problem' in currency && currency.problem).toMatch(/ISO 4217/);
  });

  it('names the cycle by the month most lines start in, else the month before the invoice date', () => {
    expect(invoiceCycle(['2026-01-31T00:00:00Z', '2026-02-01T00:00:00Z', '2026-02-03T00:00:00Z'], '2026-03-01T00:00:00Z')).toBe('2026-02');
    expect(invoiceCycle([null, 'not a date'], '2026-03-01T00:00:00Z')).toBe('2026-02');
    expect(invoiceCycle([], '2026-01-01T00:00:00Z')).toBe('2025-12');
  });
});
