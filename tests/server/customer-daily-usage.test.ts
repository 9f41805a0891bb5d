// Each customer's daily usage as migration 0012 keeps it (deltas appended by the writers of lines'
// days and of terminals) against the figures taken from the lines themselves: after any sequence
// of usage writes, assignments, moves between lines, removals and folds, every customer's days are
// equal. And, on PostgreSQL, a usage batch and an assignment of the same line in overlapping
// transactions leave them equal too (the race the trigger's FOR SHARE closes).
import fc from 'fast-check';
import { eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../server/db/client';
import { serviceLineUsageDaily, terminals } from '../../server/db/schema';
import { insertTerminals, insertUsageDays, terminalRow } from '../fixtures/terminals';
import { createRepositories, type Repositories } from '../../server/db/repositories';
import { createTestContext, TEST_DATABASE_URL, type TestContext } from './helpers';

let ctx: TestContext;
let repos: Repositories;
let customers: string[];
const RUNS = Number(process.env.FUZZ_RUNS ?? 25);
const FROM = '2026-01-01';
const TO = '2026-03-31';
const LINES = ['AST-700001-00001-01', 'AST-700002-00002-02', 'AST-700003-00003-03', 'AST-700004-00004-04'];
const TERMINALS = ['UT-DAILY-1', 'UT-DAILY-2', 'UT-DAILY-3', 'UT-DAILY-4', 'UT-DAILY-5'];
const DAYS = ['2026-01-31', '2026-02-01', '2026-02-02', '2026-03-15'];

beforeAll(async () => {
  ctx = await createTestContext();
  repos = createRepositories(ctx.database.db);
  customers = [];
  for (const name of ['Ana Lima', 'Bruno Okafor', 'Carla Schmidt']) {
    customers.push((await ctx.createCustomer({ name, email: `${name.split(' ')[0]!.toLowerCase()}@example.com`, password: null })).id);
  }
});
afterAll(async () => {
  await ctx?.close();
});

const db = () => ctx.database.db;
const repo = () => repos.customerTerminals;

async function reset(): Promise<void> {
  await db().delete(serviceLineUsageDaily).where(inArray(serviceLineUsageDaily.serviceLineNumber, LINES));
  await db().delete(terminals).where(inArray(terminals.userTerminalId, TERMINALS));
  await db().execute(sql`DELETE FROM customer_usage_daily_deltas`);
}

/** Every customer's days both ways, rounded the way the API rounds them. */
async function bothWays(): Promise<{ kept: unknown[]; counted: unknown[] }> {
  const round = (rows: { day: string; priorityGb: number; standardGb: number }[]) =>
    rows.map((r) => ({ day: r.day, p: Math.round(r.priorityGb * 1000) / 1000, s: Math.round(r.standardGb * 1000) / 1000 }));
  const kept: unknown[] = [];
  const counted: unknown[] = [];
  for (const customer of customers) {
    kept.push({ customer, days: round(await repo().dailyTotals(customer, FROM, TO)) });
    counted.push({ customer, days: round(await repo().dailyTotalsFromLines(customer, FROM, TO)) });
  }
  return { kept, counted };
}

type Step =
  | { kind: 'usage'; line: number; day: number; priority: number; standard: number }
  | { kind: 'forgetDay'; line: number; day: number }
  | { kind: 'assign'; terminal: number; customer: number | null }
  | { kind: 'move'; terminal: number; line: number | null }
  | { kind: 'remove'; terminal: number; removed: boolean }
  | { kind: 'reassignAll'; from: number; to: number | null }
  | { kind: 'fold' };

const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({
    kind: fc.constant('usage' as const),
    line: fc.nat(LINES.length - 1),
    day: fc.nat(DAYS.length - 1),
    priority: fc.integer({ min: 0, max: 40000 }).map((n) => n / 100),
    standard: fc.integer({ min: 0, max: 40000 }).map((n) => n / 100),
  }),
  fc.record({ kind: fc.constant('forgetDay' as const), line: fc.nat(LINES.length - 1), day: fc.nat(DAYS.length - 1) }),
  fc.record({ kind: fc.constant('assign' as const), terminal: fc.nat(TERMINALS.length - 1), customer: fc.option(fc.nat(2)) }),
  fc.record({ kind: fc.constant('move' as const), terminal: fc.nat(TERMINALS.length - 1), line: fc.option(fc.nat(LINES.length - 1)) }),
  fc.record({ kind: fc.constant('remove' as const), terminal: fc.nat(TERMINALS.length - 1), removed: fc.boolean() }),
  fc.record({ kind: fc.constant('reassignAll' as const), from: fc.nat(2), to: fc.option(fc.nat(2)) }),
  fc.constant({ kind: 'fold' as const }),
);

async function apply(s: Step): Promise<void> {
  const at = new Date('2026-03-02T09:00:00Z');
  switch (s.kind) {
    case 'usage':
      // The sync's own statement: an upsert of the day (insert or update).
      await repos.terminalInventory.upsertUsageDaily(
        [{ serviceLineNumber: LINES[s.line]!, usageDate: DAYS[s.day]!, priorityGb: s.priority, standardGb: s.standard, optInPriorityGb: 0, nonBillableGb: 0 }],
        at,
      );
      return;
    case 'forgetDay':
      await db().execute(sql`DELETE FROM service_line_usage_daily WHERE service_line_number = ${LINES[s.line]!} AND usage_date = ${DAYS[s.day]!}::date`);
      return;
    case 'assign':
      await db()
        .update(terminals)
        .set({ assignedCustomerId: s.customer === null ? null : customers[s.customer]!, assignedAt: s.customer === null ? null : at })
        .where(eq(terminals.userTerminalId, TERMINALS[s.terminal]!));
      return;
    case 'move':
      await db().update(terminals).set({ serviceLineNumber: s.line === null ? null : LINES[s.line]! }).where(eq(terminals.userTerminalId, TERMINALS[s.terminal]!));
      return;
    case 'remove':
      await db().update(terminals).set({ removedAt: s.removed ? at : null }).where(eq(terminals.userTerminalId, TERMINALS[s.terminal]!));
      return;
    case 'reassignAll':
      // One statement moving several terminals (and maybe several lines) at once.
      await db()
        .update(terminals)
        .set({ assignedCustomerId: s.to === null ? null : customers[s.to]!, assignedAt: s.to === null ? null : at })
        .where(eq(terminals.assignedCustomerId, customers[s.from]!));
      return;
    case 'fold':
      await repo().foldDailyTotals();
      return;
  }
}

describe("a customer's daily usage kept by the writers", () => {
  it('equals the days counted from the lines after any sequence of usage writes, assignments, moves, removals and folds', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 25 }), async (steps) => {
        await reset();
        // Terminals 0 and 4 share line 0; every terminal starts unassigned, with some usage stored.
        await insertTerminals(db(), TERMINALS.map((id, i) => terminalRow({ userTerminalId: id, serviceLineNumber: LINES[i % LINES.length]! })));
        await insertUsageDays(db(), LINES.map((line, i) => ({ serviceLineNumber: line, usageDate: DAYS[i % DAYS.length]!, priorityGb: 1.5 + i, standardGb: 0.25 })));
        for (const s of steps) await apply(s);
        const { kept, counted } = await bothWays();
        expect(kept).toEqual(counted);
      }),
      { numRuns: RUNS },
    );
  });

  it('counts a line held through two terminals once, and a fold leaves one row a customer and day', async () => {
    await reset();
    const [ana] = customers as [string];
    await insertTerminals(db(), [
      terminalRow({ userTerminalId: TERMINALS[0]!, serviceLineNumber: LINES[0]!, assignedCustomerId: ana, assignedAt: new Date() }),
      terminalRow({ userTerminalId: TERMINALS[1]!, serviceLineNumber: LINES[0]!, assignedCustomerId: ana, assignedAt: new Date() }),
    ]);
    for (const priority of [1, 2.5, 4]) {
      await repos.terminalInventory.upsertUsageDaily(
        [{ serviceLineNumber: LINES[0]!, usageDate: DAYS[1]!, priorityGb: priority, standardGb: 1, optInPriorityGb: 0, nonBillableGb: 0 }],
        new Date(),
      );
    }
    expect(await repo().dailyTotals(ana, FROM, TO)).toEqual([{ day: DAYS[1], priorityGb: 4, standardGb: 1 }]);
    expect(await repo().dailyTotalRows()).toBe(3);
    await repo().foldDailyTotals();
    expect(await repo().dailyTotalRows()).toBe(1);
    expect(await repo().dailyTotals(ana, FROM, TO)).toEqual([{ day: DAYS[1], priorityGb: 4, standardGb: 1 }]);
    // Unassigning one of the two terminals keeps the line; the second takes it away.
    await apply({ kind: 'assign', terminal: 0, customer: null });
    expect(await repo().dailyTotals(ana, FROM, TO)).toEqual([{ day: DAYS[1], priorityGb: 4, standardGb: 1 }]);
    await apply({ kind: 'assign', terminal: 1, customer: null });
    expect(await repo().dailyTotals(ana, FROM, TO)).toEqual([]);
    await repo().foldDailyTotals();
    expect(await repo().dailyTotalRows()).toBe(0);
  });
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.skipIf(!TEST_DATABASE_URL)('a usage batch and an assignment of the same line at once (PostgreSQL)', () => {
  /**
   * `first` runs its statement and holds its transaction open while `second` runs its own and
   * commits (or waits for `first`); then `first` commits. The figures must match the lines.
   */
  async function overlap(first: (tx: Db) => Promise<unknown>, second: (tx: Db) => Promise<unknown>) {
    let firstWrote!: () => void;
    const written = new Promise<void>((resolve) => (firstWrote = resolve));
    const a = db().transaction(async (tx: Db) => {
      await first(tx);
      firstWrote();
      await sleep(300);
    });
    const b = (async () => {
      await written;
      await db().transaction(async (tx: Db) => {
        await second(tx);
      });
    })();
    return Promise.allSettled([a, b]);
  }

  const usage = (priority: number) => (tx: Db) =>
    repos.terminalInventory.upsertUsageDaily(
      [{ serviceLineNumber: LINES[0]!, usageDate: DAYS[2]!, priorityGb: priority, standardGb: 2, optInPriorityGb: 0, nonBillableGb: 0 }],
      new Date(),
      tx,
    );
  const assignTo = (customer: () => string | null) => (tx: Db) =>
    tx.update(terminals).set({ assignedCustomerId: customer(), assignedAt: customer() ? new Date() : null }).where(eq(terminals.userTerminalId, TERMINALS[0]!));

  it.each([
    ['the usage first, the assignment while it is open', 'usage'],
    ['the assignment first, the usage while it is open', 'assign'],
  ])('%s: both commit and the days match the lines', async (_name, which) => {
    await reset();
    const [ana, bruno] = customers as [string, string];
    await insertTerminals(db(), [terminalRow({ userTerminalId: TERMINALS[0]!, serviceLineNumber: LINES[0]!, assignedCustomerId: ana, assignedAt: new Date() })]);
    await insertUsageDays(db(), [{ serviceLineNumber: LINES[0]!, usageDate: DAYS[2]!, priorityGb: 1, standardGb: 1 }]);
    const outcomes =
      which === 'usage' ? await overlap(usage(7.5), assignTo(() => bruno)) : await overlap(assignTo(() => bruno), usage(7.5));
    expect(outcomes.map((o) => (o.status === 'rejected' ? String((o.reason as Error).cause ?? o.reason) : 'ok'))).toEqual(['ok', 'ok']);
    const { kept, counted } = await bothWays();
    expect(kept).toEqual(counted);
    expect(await repo().dailyTotals(bruno, FROM, TO)).toEqual([{ day: DAYS[2], priorityGb: 7.5, standardGb: 2 }]);
    expect(await repo().dailyTotals(ana, FROM, TO)).toEqual([]);
  });
});
