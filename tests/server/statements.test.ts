// Statements over HTTP and the database, against the real simulator (60 terminals, its
// clock the test's): February and March 2026 worked out from synced lines, usage and top-ups; a
// line started mid-February pro-rated by days; February's overage billed; February closed by an
// administrator (numbered, the pending correction applied) and immutable after — refreshes, new
// prices, re-syncs, lines moving, the customer deleted, even SQL by hand change nothing of it; a plan
// change in March billed as two fee lines from the provider's partial periods; top-ups bought in
// the cycle billed; a customer's own price and discount; March closed on its own at April's first
// usage sync, by two servers at once, numbering each statement once; the CSV export read back to
// the list's totals; each customer seeing only their own statements; bad input answered 400.
//
// The app's background jobs are not started: runs are made here, in order, so what each step
// asserts is what that step did (tests/server/statements-jobs.test.ts covers the queue).
import { sql } from 'drizzle-orm';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BILLING_MESSAGES as M, STATEMENT_CSV_COLUMNS, type StatementListWire, type StatementSummaryWire, type StatementWire } from '../../src/domain/billing';
import { buildApp } from '../../server/app';
import { hashPassword } from '../../server/auth/passwords';
import type { Database } from '../../server/db/client';
import { createRepositories } from '../../server/db/repositories';
import type { SyncRunTracker } from '../../server/services/terminal-sync';
import { startSimulator, type RunningSimulator } from '../../server/simulator';
import { createClock, createTestDatabase, testConfig, type TestDatabase } from './helpers';
import { fastClient } from './terminal-sync-fixtures';
import { parseCsv } from '../fixtures/csv';

const clock = createClock('2026-03-18T10:30:00.000Z');
let sim: RunningSimulator;
let testDb: TestDatabase;
let second: Database;
let app: FastifyInstance;
let app2: FastifyInstance;
const tokens: Record<'admin' | 'viewer' | 'ana' | 'bea', string> = { admin: '', viewer: '', ana: '', bea: '' };
const ids: Record<'ana' | 'bea' | 'carl', string> = { ana: '', bea: '', carl: '' };

/** Lines of the simulated fleet (seed 'starlink-demo', 60 terminals, laid out on 2026-03-18), checked in beforeAll. */
const LINE = {
  /** Ana's: 50 GB since 2025, moved to 1 TB on 2026-03-18. */
  change: 'AST-150940-60742-27',
  /** Ana's: 50 GB, service from 2026-02-17T06:06:40Z. */
  february: 'AST-150940-38416-21',
  /** Ana's: 50 GB, one one-time top-up block in March. */
  topUp: 'AST-150940-93764-09',
  /** Ana's: Priority with data blocks (priced in EUR here), 22.15 GB over in February. */
  blocks: 'AST-150940-37481-67',
  /** Bea's: 50 GB, 27.26 GB over in February. */
  beaOver: 'AST-150940-97710-16',
  /** Bea's: 1 TB, two one-time top-up blocks in March. */
  beaTopUps: 'AST-150940-32601-06',
  /** Carl's: 1 TB. */
  carl: 'AST-150940-54927-12',
} as const;

const db = () => testDb.database.db;
const rows = async <T>(query: ReturnType<typeof sql>) => ((await db().execute(query)) as unknown as { rows: T[] }).rows;

async function request(options: InjectOptions & { token?: string | null }) {
  const { token, headers, ...rest } = options;
  return app.inject({ ...rest, headers: { ...headers, ...(token ? { authorization: `Bearer ${token}` } : {}) } });
}
const data = <T>(response: { json(): unknown }) => (response.json() as { data: T }).data;
const get = async <T>(url: string, token = tokens.admin) => {
  const response = await request({ method: 'GET', url, token });
  expect(response.statusCode, `${url}: ${response.body}`).toBe(200);
  return data<T>(response);
};

const PASSWORD = 'Statements-Test-1!';

async function login(kind: 'admin' | 'customer', email: string): Promise<string> {
  const response = await app.inject({ method: 'POST', url: kind === 'admin' ? '/api/v1/auth/login' : '/api/v1/customers/auth/login', payload: { email, password: PASSWORD } });
  expect(response.statusCode, response.body).toBe(200);
  return data<{ token: string }>(response).token;
}

/** Tokens at the test clock (moving it a fortnight on outlives them). Carl, once deleted, signs in no more. */
async function signIn() {
  tokens.admin = await login('admin', 'admin@test.local');
  tokens.viewer = await login('admin', 'viewer@test.local');
  tokens.ana = await login('customer', 'ana@test.local');
  tokens.bea = await login('customer', 'bea@test.local');
}

/** A sync run as a worker would make it (queued, claimed, run, finished), at the test clock. */
async function runSync(kind: 'inventory' | 'usage') {
  const repos = createRepositories(db());
  const inserted = await repos.syncRuns.insertQueued({ kind, accountId: 1, trigger: 'manual', requestedBy: null, at: clock.now() });
  if (!inserted.ok) throw new Error(`a ${kind} run is already queued`);
  const run = (await repos.syncRuns.claim(inserted.row.id, 'statements-test', clock.now()))!;
  const tracker: SyncRunTracker = { run, signal: new AbortController().signal, report() {}, async checkpoint() {} };
  const engine = app.services.terminalSync;
  const outcome = kind === 'inventory' ? await engine.syncInventory(tracker) : await engine.syncUsage(tracker);
  await repos.syncRuns.finish(run.id, 'statements-test', { status: 'succeeded', at: clock.now(), message: outcome.message, counts: outcome.counts, providerCalls: outcome.providerCalls });
}

async function assign(customer: 'ana' | 'bea' | 'carl', lines: string[]) {
  const response = await request({ method: 'POST', url: '/api/v1/terminals/customers/assign-terminals', token: tokens.admin, payload: { customerUuid: ids[customer], serviceLineNumbers: lines } });
  expect(response.statusCode, response.body).toBe(200);
  expect(data<{ failed: unknown[] }>(response).failed).toEqual([]);
}

async function statementsOf(cycle: string): Promise<StatementWire[]> {
  const list = await get<StatementListWire>(`/api/v1/billing/statements?cycle=${cycle}&limit=100`);
  return Promise.all(list.items.map((s) => get<StatementWire>(`/api/v1/billing/statements/${s.id}`)));
}
const find = (statements: StatementWire[], customer: 'ana' | 'bea' | 'carl', currency = 'USD') => {
  const found = statements.find((s) => s.customerId === ids[customer] && s.currency === currency);
  if (!found) throw new Error(`no ${currency} statement of ${customer}`);
  return found;
};
const itemsOf = (statement: StatementWire, line: string) => statement.items.filter((i) => i.serviceLineNumber === line);
const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);

/** Every column of the cycle's closed statements and their lines, as the database holds them. */
async function closedState(cycle: string): Promise<string> {
  const statements = await rows<{ row: string }>(sql`SELECT row_to_json(s)::text AS row FROM billing_statements s WHERE cycle = ${cycle} AND status = 'closed' ORDER BY id`);
  const items = await rows<{ row: string }>(sql`
    SELECT row_to_json(i)::text AS row FROM billing_statement_items i JOIN billing_statements s ON s.id = i.statement_id
    WHERE s.cycle = ${cycle} AND s.status = 'closed' ORDER BY i.statement_id, i.position`);
  return JSON.stringify([statements.map((r) => r.row), items.map((r) => r.row)]);
}

/** What the database said when it refused (Drizzle wraps the driver's error). */
async function refusal(query: ReturnType<typeof sql>): Promise<string> {
  try {
    await db().execute(query);
    return '';
  } catch (error) {
    const e = error as Error & { cause?: Error };
    return `${e.message} ${e.cause?.message ?? ''}`;
  }
}

/** "-12.34" → -1234 (two-decimal currencies only, as here). */
const cents = (text: string) => {
  const [whole, fraction = ''] = text.replace('-', '').split('.');
  const value = Number(whole) * 100 + Number(fraction.padEnd(2, '0'));
  return text.startsWith('-') ? -value : value;
};

beforeAll(async () => {
  sim = await startSimulator({ port: 0, terminals: 60, now: clock.now });
  // The lines this file is about are what the comments say they are.
  expect(sim.fleet.serviceLine(LINE.february)).toMatchObject({ productReferenceId: 'SUB-METERED-50GB', startDate: '2026-02-17T06:06:40.000Z', endDate: null });
  expect(sim.fleet.serviceLine(LINE.change)).toMatchObject({ productReferenceId: 'SUB-METERED-50GB', endDate: null });
  expect(sim.fleet.serviceLine(LINE.blocks)?.productReferenceId).toBe('SUB-PRIORITY-BLOCKS');
  expect(sim.fleet.serviceLine(LINE.topUp)?.dataBlocks?.topUpBlocksOneTimePurchase?.map((b) => b.count)).toEqual([1]);
  expect(sim.fleet.serviceLine(LINE.beaTopUps)?.dataBlocks?.topUpBlocksOneTimePurchase?.map((b) => b.count)).toEqual([2]);

  testDb = await createTestDatabase();
  second = await testDb.connectAgain();
  const client = fastClient(sim);
  const config = await testConfig({ SYNC_INTERVAL: 'off', USAGE_HISTORY_CYCLES: '2' });
  const build = (database: Database) =>
    buildApp({ config, database, now: clock.now, logger: false, provider: { kind: 'simulator', client: () => client }, startSyncJobs: 'manual' });
  app = await build(testDb.database);
  await app.ready();
  app2 = await build(second);
  await app2.ready();

  const repos = createRepositories(db());
  const hash = await hashPassword(PASSWORD);
  const at = clock.now();
  await repos.users.insert({ email: 'admin@test.local', name: 'Ada Admin', role: 'admin', passwordHash: hash, createdAt: at, updatedAt: at });
  await repos.users.insert({ email: 'viewer@test.local', name: 'Vic Viewer', role: 'user', passwordHash: hash, createdAt: at, updatedAt: at });
  const people = { ana: 'Ana Sousa', bea: 'Bea Lima', carl: '=HYPERLINK("http://evil.test","Carl")' } as const;
  for (const key of ['ana', 'bea', 'carl'] as const) {
    const row = await repos.customers.insert({ email: `${key}@test.local`, name: people[key], company: `${key} Co`, address: `${key} Street 1`, passwordHash: hash, createdAt: at, updatedAt: at });
    ids[key] = row.id;
  }
  await signIn();

  await runSync('inventory');
  await runSync('usage');
  await db().execute(sql`
    INSERT INTO billing_prices (product_reference_id, currency, monthly_minor, overage_per_gb_minor, top_up_minor, effective_from) VALUES
      ('SUB-METERED-50GB', 'USD', 7900, 500, 1500, '2025-01-01'),
      ('SUB-METERED-1TB', 'USD', 16900, 300, 1500, '2025-01-01'),
      ('SUB-PRIORITY-BLOCKS', 'EUR', 3900, 700, 1200, '2025-01-01')`);
  await assign('ana', [LINE.change, LINE.february, LINE.topUp, LINE.blocks]);
  await assign('bea', [LINE.beaOver, LINE.beaTopUps]);
  await assign('carl', [LINE.carl]);
}, 180_000);

afterAll(async () => {
  await app2?.close();
  await app?.close();
  await second?.close();
  await testDb?.drop();
  await sim?.close();
});

describe('an ended cycle (February)', () => {
  let february: StatementWire[];

  it('has a draft per customer and currency with a fee line per line held, and totals that are the sum of the lines', async () => {
    const report = await app.services.statements.refresh('2026-02');
    expect(report).toEqual({ cycle: '2026-02', statements: 4, changed: 4 });
    february = await statementsOf('2026-02');
    expect(february.map((s) => [s.customerId, s.currency]).sort()).toEqual(
      [
        [ids.ana, 'EUR'],
        [ids.ana, 'USD'],
        [ids.bea, 'USD'],
        [ids.carl, 'USD'],
      ].sort(),
    );
    for (const s of february) {
      expect(s).toMatchObject({ status: 'draft', number: null, cycle: '2026-02', cycleStart: '2026-02-01', cycleEnd: '2026-02-28' });
      const plans = s.items.filter((i) => i.kind === 'plan');
      expect(new Set(plans.map((i) => i.serviceLineNumber)).size).toBe(s.serviceLines);
      expect(s.subtotalMinor).toBe(sum(s.items.filter((i) => i.kind !== 'discount' && i.kind !== 'adjustment').map((i) => i.amountMinor)));
      expect(s.totalMinor).toBe(sum(s.items.map((i) => i.amountMinor)));
      expect(s.totalMinor).toBe(s.subtotalMinor + s.discountMinor + s.adjustmentMinor);
      expect(s.items.map((i) => i.position)).toEqual(s.items.map((_, k) => k));
    }
    expect(find(february, 'ana').serviceLines).toBe(3);
    expect(find(february, 'ana', 'EUR').serviceLines).toBe(1);
    expect(find(february, 'bea').serviceLines).toBe(2);
    // Nothing changed, nothing is written again.
    expect(await app.services.statements.refresh('2026-02')).toEqual({ cycle: '2026-02', statements: 4, changed: 0 });
  });

  it('pro-rates a line that started during the cycle by the days whose last second it held', async () => {
    const [fee, ...rest] = itemsOf(find(february, 'ana'), LINE.february);
    expect(rest).toEqual([]);
    // Service from 17 February 06:06: the 17th to the 28th, 12 of 28 days; 7900 × 12 / 28 = 3385.71.
    expect(fee).toMatchObject({
      kind: 'plan',
      productReferenceId: 'SUB-METERED-50GB',
      description: 'Local Priority 50 GB, 12 of 28 days',
      periodStart: '2026-02-17',
      periodEnd: '2026-02-28',
      quantity: '12',
      unitMinor: 7900,
      amountMinor: 3386,
    });
    expect(itemsOf(find(february, 'ana'), LINE.change)).toMatchObject([{ kind: 'plan', description: 'Local Priority 50 GB', quantity: '28', amountMinor: 7900 }]);
  });

  it("bills the cycle's overage at the price per GB of the line's product, in that product's currency", async () => {
    expect(itemsOf(find(february, 'ana', 'EUR'), LINE.blocks)).toMatchObject([
      { kind: 'plan', amountMinor: 3900 },
      { kind: 'overage', quantity: '22.15', unitMinor: 700, amountMinor: 15505, periodStart: '2026-02-01', periodEnd: '2026-02-28' },
    ]);
    expect(itemsOf(find(february, 'bea'), LINE.beaOver)).toMatchObject([
      { kind: 'plan', amountMinor: 7900 },
      { kind: 'overage', quantity: '27.26', unitMinor: 500, amountMinor: 13630 },
    ]);
    expect(find(february, 'bea').totalMinor).toBe(7900 + 13630 + 16900);
  });

  it('closes when an administrator says so: each statement numbered, the customer copied in, the pending correction applied', async () => {
    const [credit] = await rows<{ id: string }>(sql`
      INSERT INTO billing_adjustments (customer_id, currency, amount_minor, reason) VALUES (${ids.ana}::uuid, 'USD', -500, 'Credit for the outage of 3 February')
      RETURNING id::text AS id`);
    expect((await request({ method: 'POST', url: '/api/v1/billing/cycles/2026-02/close', token: tokens.viewer })).statusCode).toBe(403);
    const response = await request({ method: 'POST', url: '/api/v1/billing/cycles/2026-02/close', token: tokens.admin });
    expect(response.statusCode, response.body).toBe(200);
    expect(data<{ cycle: string; statements: number }>(response)).toMatchObject({ cycle: '2026-02', statements: 4 });

    const closed = await statementsOf('2026-02');
    expect(closed).toHaveLength(4);
    const numbers = closed.map((s) => s.number);
    expect(new Set(numbers).size).toBe(4);
    for (const s of closed) {
      expect(s.status).toBe('closed');
      expect(s.number).toMatch(/^ST-2026-02-\d{6}$/);
      expect(s.closedAt).toBe(clock.now().toISOString());
    }
    const ana = find(closed, 'ana');
    expect(ana).toMatchObject({ customerName: 'Ana Sousa', customerEmail: 'ana@test.local', customerCompany: 'ana Co', customerAddress: 'ana Street 1', adjustmentMinor: -500 });
    expect(ana.items.at(-1)).toMatchObject({ kind: 'adjustment', description: 'Credit for the outage of 3 February', amountMinor: -500, adjustmentId: credit!.id });
    expect(ana.totalMinor).toBe(7900 + 3386 + 7900 - 500);
    const [applied] = await rows<{ statement: string }>(sql`SELECT applied_statement_id::text AS statement FROM billing_adjustments WHERE id = ${credit!.id}::uuid`);
    expect(applied!.statement).toBe(ana.id);
    expect(await rows(sql`SELECT status FROM billing_cycles WHERE cycle = '2026-02'`)).toEqual([{ status: 'closed' }]);
    const [audit] = await rows<{ actor_type: string; target_id: string }>(sql`SELECT actor_type, target_id FROM audit_log WHERE action = 'billing.cycle_closed'`);
    expect(audit).toEqual({ actor_type: 'user', target_id: '2026-02' });

    // Once is all: again is a 409, and so is a cycle still running.
    const again = await request({ method: 'POST', url: '/api/v1/billing/cycles/2026-02/close', token: tokens.admin });
    expect([again.statusCode, again.json().message]).toEqual([409, M.cycleClosed]);
    const running = await request({ method: 'POST', url: '/api/v1/billing/cycles/2026-03/close', token: tokens.admin });
    expect([running.statusCode, running.json().message]).toEqual([409, M.cycleNotEnded]);
    const bad = await request({ method: 'POST', url: '/api/v1/billing/cycles/2026-2/close', token: tokens.admin });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toContain(M.cycleInvalid);
  });
});

describe('the running cycle (March)', () => {
  it('has drafts for the lines held, without the correction February took', async () => {
    const refreshed = await request({ method: 'POST', url: '/api/v1/billing/statements/refresh', token: tokens.admin });
    expect(refreshed.statusCode, refreshed.body).toBe(200);
    expect(data(refreshed)).toEqual({ cycle: '2026-03', statements: 4, changed: 4 });
    expect((await request({ method: 'POST', url: '/api/v1/billing/statements/refresh', token: tokens.viewer })).statusCode).toBe(403);
    const march = await statementsOf('2026-03');
    const ana = find(march, 'ana');
    expect(ana.items.map((i) => [i.kind, i.serviceLineNumber, i.quantity, i.amountMinor])).toEqual([
      ['plan', LINE.february, '31', 7900],
      ['plan', LINE.change, '31', 7900],
      ['plan', LINE.topUp, '31', 7900],
      ['top_up', LINE.topUp, '1', 1500],
    ]);
    expect(ana.adjustmentMinor).toBe(0);
  });

  it("bills a plan change during the cycle as two fee lines, from the provider's partial periods", async () => {
    const changed = await request({ method: 'PUT', url: `/api/v1/subscriptions/${LINE.change}/plan`, token: tokens.admin, payload: { productReferenceId: 'SUB-METERED-1TB' } });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(await rows(sql`SELECT service_line_number FROM billing_period_checks`)).toEqual([{ service_line_number: LINE.change }]);
    await app.services.statements.refresh('2026-03');
    expect(await rows(sql`SELECT service_line_number FROM billing_period_checks`)).toEqual([]);
    // Moved at 10:30 on the 18th: the 1st to the 17th on 50 GB, the 18th (its last second on 1 TB) to the 31st on 1 TB.
    expect(itemsOf(find(await statementsOf('2026-03'), 'ana'), LINE.change)).toMatchObject([
      { kind: 'plan', productReferenceId: 'SUB-METERED-50GB', description: 'Local Priority 50 GB, 17 of 31 days', periodStart: '2026-03-01', periodEnd: '2026-03-17', quantity: '17', amountMinor: 4332 },
      { kind: 'plan', productReferenceId: 'SUB-METERED-1TB', description: 'Local Priority 1 TB, 14 of 31 days', periodStart: '2026-03-18', periodEnd: '2026-03-31', quantity: '14', amountMinor: 7632 },
    ]);
  });

  it('bills the top-ups bought in the cycle, one bought through the portal included', async () => {
    const before = itemsOf(find(await statementsOf('2026-03'), 'bea'), LINE.beaTopUps);
    expect(before.find((i) => i.kind === 'top_up')).toMatchObject({ quantity: '2', unitMinor: 1500, amountMinor: 3000, description: 'Top-ups, 2 blocks' });
    const settings = await get<{ topUpProduct: { productId: string } | null }>(`/api/v1/service-lines/${LINE.beaTopUps}/settings`);
    const bought = await request({ method: 'POST', url: `/api/v1/service-lines/${LINE.beaTopUps}/top-up`, token: tokens.admin, payload: { productId: settings.topUpProduct!.productId, count: 1 } });
    expect(bought.statusCode, bought.body).toBe(200);
    await app.services.statements.refresh('2026-03');
    expect(itemsOf(find(await statementsOf('2026-03'), 'bea'), LINE.beaTopUps).find((i) => i.kind === 'top_up')).toMatchObject({ quantity: '3', amountMinor: 4500 });
    expect(await rows(sql`SELECT one_time_blocks, opt_in_blocks FROM billing_line_top_ups WHERE service_line_number = ${LINE.beaTopUps} AND cycle = '2026-03'`)).toEqual([
      { one_time_blocks: 3, opt_in_blocks: 0 },
    ]);
  });

  it("applies the customer's own price for a product and their discount, as a line of its own", async () => {
    await db().execute(sql`INSERT INTO billing_customer_prices (customer_id, product_reference_id, effective_from, monthly_minor) VALUES (${ids.bea}::uuid, 'SUB-METERED-50GB', '2026-01-01', 6000)`);
    await db().execute(sql`INSERT INTO billing_customer_prices (customer_id, product_reference_id, effective_from, discount_bp) VALUES (${ids.bea}::uuid, NULL, '2026-01-01', 1000)`);
    await app.services.statements.refresh('2026-03');
    const bea = find(await statementsOf('2026-03'), 'bea');
    expect(itemsOf(bea, LINE.beaOver)).toMatchObject([{ kind: 'plan', unitMinor: 6000, amountMinor: 6000 }]);
    expect(bea.subtotalMinor).toBe(6000 + 16900 + 4500);
    expect(bea.items.at(-1)).toMatchObject({ kind: 'discount', description: 'Discount 10 %', amountMinor: -2740, serviceLineNumber: null });
    expect(bea).toMatchObject({ discountMinor: -2740, totalMinor: 27400 - 2740 });
  });
});

describe('a closed statement', () => {
  it('never changes: not by refreshes, new prices, a re-sync, lines moving or the customer deleted', async () => {
    const before = await closedState('2026-02');
    expect(before).toContain('ST-2026-02-');
    await app.services.statements.refresh('2026-02');
    await db().execute(sql`INSERT INTO billing_prices (product_reference_id, currency, monthly_minor, overage_per_gb_minor, top_up_minor, effective_from) VALUES ('SUB-METERED-50GB', 'USD', 9900, 900, 1900, '2026-02-01')`);
    await db().execute(sql`INSERT INTO billing_customer_prices (customer_id, product_reference_id, effective_from, discount_bp) VALUES (${ids.ana}::uuid, NULL, '2026-01-01', 5000)`);
    await db().execute(sql`INSERT INTO billing_adjustments (customer_id, currency, amount_minor, reason) VALUES (${ids.bea}::uuid, 'USD', 1200, 'Late fee')`);
    await runSync('inventory');
    await runSync('usage');
    const moved = await request({ method: 'POST', url: '/api/v1/terminals/customers/unassign-terminal', token: tokens.admin, payload: { customerUuid: ids.ana, serviceLineNumber: LINE.february } });
    expect(moved.statusCode, moved.body).toBe(200);
    await assign('bea', [LINE.february]);
    expect((await request({ method: 'DELETE', url: `/api/v1/customers/${ids.carl}`, token: tokens.admin })).statusCode).toBe(200);
    await app.services.statements.refresh('2026-02');
    await app.services.statements.refresh('2026-03');
    expect(await app.services.statements.closeDue()).toEqual([]);
    expect(await closedState('2026-02')).toBe(before);

    // The running cycle did follow: the line moved to Bea, Carl (deleted) has no statement, Bea's fee got dearer.
    const march = await statementsOf('2026-03');
    expect(march.some((s) => s.customerId === ids.carl)).toBe(false);
    expect(itemsOf(find(march, 'bea'), LINE.february)).toMatchObject([{ kind: 'plan', unitMinor: 6000 }]);
    expect(itemsOf(find(march, 'ana'), LINE.february)).toEqual([]);
    expect(find(march, 'bea').items.at(-1)).toMatchObject({ kind: 'adjustment', amountMinor: 1200 });
  });

  it('is refused by the database itself: an UPDATE or DELETE of it or of its lines fails', async () => {
    const before = await closedState('2026-02');
    const [{ id }] = (await rows<{ id: string }>(sql`SELECT id::text AS id FROM billing_statements WHERE cycle = '2026-02' AND status = 'closed' LIMIT 1`)) as [{ id: string }];
    expect(await refusal(sql`UPDATE billing_statements SET total_minor = 1 WHERE id = ${id}::uuid`)).toMatch(/is closed and cannot change/);
    expect(await refusal(sql`UPDATE billing_statements SET status = 'draft', number = NULL, closed_at = NULL WHERE id = ${id}::uuid`)).toMatch(/is closed/);
    expect(await refusal(sql`DELETE FROM billing_statements WHERE id = ${id}::uuid`)).toMatch(/is closed/);
    expect(await refusal(sql`UPDATE billing_statement_items SET amount_minor = 0 WHERE statement_id = ${id}::uuid`)).toMatch(/its lines cannot change/);
    expect(await refusal(sql`DELETE FROM billing_statement_items WHERE statement_id = ${id}::uuid`)).toMatch(/its lines cannot change/);
    expect(
      await refusal(sql`INSERT INTO billing_statement_items (statement_id, position, kind, description, quantity, amount_minor) VALUES (${id}::uuid, 99, 'adjustment', 'sneaked in', 1, 100)`),
    ).toMatch(/its lines cannot change/);
    expect(await closedState('2026-02')).toBe(before);
  });
});

describe('the close at the end of a cycle (March, on 1 April)', () => {
  it('waits for a usage sync that started after the cycle ended, then closes it once even when two servers run it at the same time', async () => {
    const february = await closedState('2026-02');
    clock.set('2026-04-01T00:20:00.000Z');
    await signIn();
    expect(await app.services.statements.closeDue()).toEqual([]);
    expect(await rows(sql`SELECT count(*)::int AS n FROM billing_statements WHERE cycle = '2026-03' AND status = 'closed'`)).toEqual([{ n: 0 }]);

    await runSync('usage');
    const reports = (await Promise.all([app.services.statements.closeDue(), app2.services.statements.closeDue(), app.services.statements.closeDue()])).flat();
    expect(reports.map((r) => r.cycle)).toEqual(['2026-03']);
    const statements = await rows<{ number: string | null; status: string }>(sql`SELECT number, status FROM billing_statements WHERE cycle = '2026-03' AND content_hash <> ''`);
    expect(statements.length).toBe(reports[0]!.statements);
    expect(statements.every((s) => s.status === 'closed' && /^ST-2026-03-\d{6}$/.test(s.number ?? ''))).toBe(true);
    const all = await rows<{ number: string }>(sql`SELECT number FROM billing_statements WHERE number IS NOT NULL`);
    expect(new Set(all.map((r) => r.number)).size).toBe(all.length);
    // Bea's late fee is on her March statement, and marked as applied to it.
    const [fee] = await rows<{ applied: string | null; number: string | null }>(sql`
      SELECT a.applied_statement_id::text AS applied, s.number FROM billing_adjustments a LEFT JOIN billing_statements s ON s.id = a.applied_statement_id
      WHERE a.reason = 'Late fee'`);
    expect(fee!.number).toMatch(/^ST-2026-03-/);
    expect(await app.services.statements.closeDue()).toEqual([]);
    expect(await closedState('2026-02')).toBe(february);
    const [{ n }] = (await rows<{ n: number }>(sql`SELECT count(*)::int AS n FROM audit_log WHERE action = 'billing.cycle_closed' AND target_id = '2026-03' AND actor_type = 'system'`)) as [{ n: number }];
    expect(n).toBe(1);
  });
});

describe('the CSV export', () => {
  it('reads back to the same totals per statement and per currency as the statements list', async () => {
    for (const cycle of ['2026-02', '2026-03']) {
      const response = await request({ method: 'GET', url: `/api/v1/billing/statements/export.csv?cycle=${cycle}`, token: tokens.viewer });
      expect(response.statusCode, response.body).toBe(200);
      expect(response.headers['content-type']).toMatch(/^text\/csv/);
      expect(response.headers['content-disposition']).toBe(`attachment; filename="statements-${cycle}.csv"`);
      const [header, ...records] = parseCsv(response.body);
      expect(header).toEqual([...STATEMENT_CSV_COLUMNS]);
      const col = (name: (typeof STATEMENT_CSV_COLUMNS)[number]) => STATEMENT_CSV_COLUMNS.indexOf(name);
      const list = await get<StatementListWire>(`/api/v1/billing/statements?cycle=${cycle}&limit=100`);
      const byNumber = new Map<string, { total: number; amounts: number[]; currency: string }>();
      for (const record of records) {
        expect(record).toHaveLength(STATEMENT_CSV_COLUMNS.length);
        const entry = byNumber.get(record[col('statement_number')]!) ?? { total: cents(record[col('statement_total')]!), amounts: [], currency: record[col('currency')]! };
        entry.amounts.push(cents(record[col('amount')]!));
        byNumber.set(record[col('statement_number')]!, entry);
      }
      expect([...byNumber.keys()].sort()).toEqual(list.items.map((s) => s.number).sort());
      for (const s of list.items) {
        const entry = byNumber.get(s.number!)!;
        expect(entry.total).toBe(s.totalMinor);
        expect(sum(entry.amounts)).toBe(s.totalMinor);
      }
      const grand = new Map<string, number>();
      for (const entry of byNumber.values()) grand.set(entry.currency, (grand.get(entry.currency) ?? 0) + entry.total);
      expect(list.totals.map((t) => [t.currency, t.totalMinor])).toEqual([...grand].sort());
      const units = records.map((r) => [r[col('line_kind')], r[col('quantity_unit')]]);
      expect(units.filter(([kind]) => kind === 'plan').every(([, unit]) => unit === 'days')).toBe(true);
    }
  });

  it("defuses a formula in a field: Carl's name is text in his February row", async () => {
    const response = await request({ method: 'GET', url: `/api/v1/billing/statements/export.csv?cycle=2026-02&customer=${ids.carl}`, token: tokens.admin });
    const [, ...records] = parseCsv(response.body);
    expect(records.length).toBeGreaterThan(0);
    for (const record of records) expect(record[STATEMENT_CSV_COLUMNS.indexOf('customer_name')]).toBe(`'=HYPERLINK("http://evil.test","Carl")`);
  });

  it('needs a cycle written YYYY-MM', async () => {
    for (const query of ['', '?cycle=2026-13', '?cycle=march', '?cycle=2026-03&status=open']) {
      const response = await request({ method: 'GET', url: `/api/v1/billing/statements/export.csv${query}`, token: tokens.admin });
      expect(response.statusCode, query).toBe(400);
      if (query !== '?cycle=2026-03&status=open') expect(response.json().message, query).toContain(M.cycleInvalid);
    }
  });
});

describe('who sees which statements', () => {
  it('shows each customer their own statements only; another customer’s is not found', async () => {
    const anaOwn = await get<StatementSummaryWire[]>('/api/v1/my/statements', tokens.ana);
    expect(anaOwn.length).toBeGreaterThan(0);
    expect(anaOwn.every((s) => s.customerId === ids.ana)).toBe(true);
    const beaOwn = await get<StatementSummaryWire[]>('/api/v1/my/statements', tokens.bea);
    expect(beaOwn.every((s) => s.customerId === ids.bea)).toBe(true);
    const theirs = await request({ method: 'GET', url: `/api/v1/my/statements/${beaOwn[0]!.id}`, token: tokens.ana });
    expect([theirs.statusCode, theirs.json().message]).toEqual([404, M.statementNotFound]);
    expect(theirs.body).not.toContain(ids.bea);
    const own = await get<StatementWire>(`/api/v1/my/statements/${anaOwn[0]!.id}`, tokens.ana);
    expect(own).toEqual(await get<StatementWire>(`/api/v1/billing/statements/${anaOwn[0]!.id}`));
    // The admin's preview answers what she sees, and keeps to the customer it names.
    expect(await get(`/api/v1/customers/${ids.ana}/preview/statements`)).toEqual(anaOwn);
    expect(await get(`/api/v1/customers/${ids.ana}/preview/statements/${anaOwn[0]!.id}`)).toEqual(own);
    expect((await request({ method: 'GET', url: `/api/v1/customers/${ids.ana}/preview/statements/${beaOwn[0]!.id}`, token: tokens.admin })).statusCode).toBe(404);
    expect(await get(`/api/v1/customers/${ids.ana}/statements`)).toEqual(anaOwn);
    // Customers never reach the admin routes.
    for (const url of ['/api/v1/billing/statements', `/api/v1/billing/statements/${anaOwn[0]!.id}`, '/api/v1/billing/statements/export.csv?cycle=2026-02', `/api/v1/customers/${ids.ana}/statements`]) {
      expect((await request({ method: 'GET', url, token: tokens.ana })).statusCode, url).toBe(403);
    }
  });

  it('lists with filters, search and totals over the filtered set', async () => {
    const closed = await get<StatementListWire>('/api/v1/billing/statements?status=closed&limit=100');
    expect(closed.items.every((s) => s.status === 'closed')).toBe(true);
    expect(closed.cycles).toEqual([
      { cycle: '2026-03', status: 'closed' },
      { cycle: '2026-02', status: 'closed' },
    ]);
    const usd = closed.items.filter((s) => s.currency === 'USD');
    expect(closed.totals.find((t) => t.currency === 'USD')).toEqual({ currency: 'USD', statements: usd.length, totalMinor: sum(usd.map((s) => s.totalMinor)) });
    const byName = await get<StatementListWire>('/api/v1/billing/statements?search=SOUSA&cycle=2026-02');
    expect(byName.items.map((s) => [s.customerId, s.currency]).sort()).toEqual([
      [ids.ana, 'EUR'],
      [ids.ana, 'USD'],
    ]);
    // % and _ are searched for as typed: no statement holds them.
    expect((await get<StatementListWire>('/api/v1/billing/statements?search=%25_%5C&cycle=2026-02')).items).toEqual([]);
    const number = byName.items[0]!.number!;
    expect((await get<StatementListWire>(`/api/v1/billing/statements?search=${number.toLowerCase()}`)).items.map((s) => s.number)).toEqual([number]);
    const page = await get<StatementListWire>(`/api/v1/billing/statements?customer=${ids.bea}&limit=1&page=2`);
    expect(page.items).toHaveLength(1);
    expect(page.pagination).toMatchObject({ page: 2, limit: 1 });
    expect(page.totals.reduce((n, t) => n + t.statements, 0)).toBe(page.pagination.total);
  });

  it('answers 400 to a malformed query or id, and 404 to an unknown statement', async () => {
    for (const query of ['?cycle=2026-13', '?cycle=26-03', '?status=open', '?customer=ana', '?limit=0', '?limit=101', '?page=0', `?search=${'x'.repeat(101)}`]) {
      expect((await request({ method: 'GET', url: `/api/v1/billing/statements${query}`, token: tokens.admin })).statusCode, query).toBe(400);
    }
    expect((await request({ method: 'GET', url: '/api/v1/billing/statements/not-a-uuid', token: tokens.admin })).statusCode).toBe(400);
    expect((await request({ method: 'GET', url: '/api/v1/my/statements/not-a-uuid', token: tokens.ana })).statusCode).toBe(400);
    const unknown = await request({ method: 'GET', url: '/api/v1/billing/statements/5b0c1c1e-2f7a-4a59-9d1e-0b8f1f0d2a11', token: tokens.admin });
    expect([unknown.statusCode, unknown.json().message]).toEqual([404, M.statementNotFound]);
    expect((await request({ method: 'GET', url: '/api/v1/customers/5b0c1c1e-2f7a-4a59-9d1e-0b8f1f0d2a11/statements', token: tokens.admin })).statusCode).toBe(404);
  });
});
