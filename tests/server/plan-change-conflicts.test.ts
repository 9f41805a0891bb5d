// A plan change's local writes (the line, its terminals, the cycle's limit) meeting a usage run's
// writes to the same line at the same moment, on PostgreSQL: the two take the rows' locks in
// opposite orders, PostgreSQL ends one as a deadlock's victim, and the plan change, whose provider
// call has already succeeded, must run its writes again rather than fail the row it was asked for.
// (The embedded database runs one transaction at a time, so this is PostgreSQL's alone.)
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../server/db/client';
import { serviceLines, serviceLineUsageCycles, terminals } from '../../server/db/schema';
import { TEST_ACCOUNT_ID, insertProduct, insertServiceLines, insertTerminals, insertUsageCycles, terminalRow } from '../fixtures/terminals';
import { createTestContext, TEST_DATABASE_URL, type TestContext } from './helpers';

const TODAY = '2026-03-18';
const LINE = 'SL-CONFLICT-1';

let ctx: TestContext;
const db = () => ctx.database.db;

beforeAll(async () => {
  if (!TEST_DATABASE_URL) return;
  ctx = await createTestContext({ now: `${TODAY}T12:00:00Z` });
  await insertProduct(db(), { productReferenceId: 'plan-small', name: 'Small', price: 50 });
  await insertProduct(db(), { productReferenceId: 'plan-large', name: 'Large', price: 90 });
  await insertServiceLines(db(), [{ serviceLineNumber: LINE, productReferenceId: 'plan-small' }]);
  await insertTerminals(db(), [terminalRow({ userTerminalId: 'UT-CONFLICT-1', serviceLineNumber: LINE, productReferenceId: 'plan-small' })]);
  await insertUsageCycles(db(), [{ serviceLineNumber: LINE, cycleStart: '2026-03-01', cycleEnd: '2026-03-31', usageLimitGb: 50 }]);
});

afterAll(async () => {
  await ctx?.close();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.skipIf(!TEST_DATABASE_URL)('a plan change while a usage run writes the same line (PostgreSQL)', () => {
  it('is run again after PostgreSQL ends it as a deadlock\'s victim, and the line ends on the new plan', async () => {
    const repos = ctx.app.repos;
    const product = await repos.subscriptions.findLiveProduct('plan-large', TEST_ACCOUNT_ID);
    expect(product).not.toBeNull();

    // The usage run's order: the cycle first, then (once the plan change holds the line) the line.
    let cycleLocked!: () => void;
    const locked = new Promise<void>((resolve) => (cycleLocked = resolve));
    const usageRun = db().transaction(async (tx: Db) => {
      await tx.update(serviceLineUsageCycles).set({ priorityGb: 3 }).where(eq(serviceLineUsageCycles.serviceLineNumber, LINE));
      cycleLocked();
      // Long enough for the plan change to take the line and wait on the cycle.
      await sleep(300);
      await tx.update(serviceLines).set({ active: true }).where(eq(serviceLines.serviceLineNumber, LINE));
    });
    await locked;
    let attempts = 0;
    const planChange = repos.subscriptions.transaction(async (tx) => {
      attempts++;
      await repos.subscriptions.applyPlanChange({ serviceLineNumber: LINE, product: product!, monthlyDataGB: 1000, today: TODAY, at: new Date() }, tx);
    });

    const [usage, plan] = await Promise.allSettled([usageRun, planChange]);
    // Exactly one of the two was the victim; the plan change, victim or not, committed.
    expect(plan.status, plan.status === 'rejected' ? String(plan.reason) : '').toBe('fulfilled');
    expect(attempts === 2 || usage.status === 'rejected').toBe(true);
    const [line] = await db().select({ product: serviceLines.productReferenceId }).from(serviceLines).where(eq(serviceLines.serviceLineNumber, LINE));
    expect(line?.product).toBe('plan-large');
    const [terminal] = await db().select({ product: terminals.productReferenceId }).from(terminals).where(eq(terminals.serviceLineNumber, LINE));
    expect(terminal?.product).toBe('plan-large');
    const limits = await db().execute(sql`SELECT usage_limit_gb::float AS gb FROM service_line_usage_cycles WHERE service_line_number = ${LINE}`);
    expect((limits as unknown as { rows: { gb: number }[] }).rows.map((row) => Number(row.gb))).toEqual([1000]);
  });
});
