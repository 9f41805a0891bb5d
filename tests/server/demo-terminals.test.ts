// The demo's terminals: after the first-start sync of a demo database, two thirds of the synced
// lines go to the active demo customers through the ordinary assignment (audited as the system),
// once per database; a database without demo data keeps every terminal free.
import { and, eq, isNotNull, isNull, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app';
import { bootstrap } from '../../server/bootstrap';
import type { Database } from '../../server/db/client';
import { auditLog, customers, terminals } from '../../server/db/schema';
import { DEMO_TERMINALS_KEY, planDemoAssignments } from '../../server/demo-data';
import type { RunningSimulator } from '../../server/simulator';
import { createClock, createTestDatabase, testConfig, type TestDatabase } from './helpers';
import { fastClient, startFleet, SYNC_TEST_TIME, waitForLatest } from './terminal-sync-fixtures';

let sim: RunningSimulator;
const databases: TestDatabase[] = [];
beforeAll(async () => {
  sim = await startFleet({ terminals: 60 });
});
afterAll(async () => {
  await Promise.all(databases.map((d) => d.drop()));
  await sim.close();
});

async function openPortal(env: Record<string, string>, testDb?: TestDatabase) {
  const handle = testDb ?? (await createTestDatabase());
  if (!testDb) databases.push(handle);
  const clock = createClock(SYNC_TEST_TIME);
  const config = await testConfig({ SYNC_INTERVAL: '15m', ...env });
  await bootstrap({ database: handle.database, config, now: clock.now });
  const client = fastClient(sim);
  const app = await buildApp({ config, database: handle.database, now: clock.now, logger: false, provider: { kind: 'simulator', client: () => client } });
  await app.ready();
  return { app, database: handle.database, handle };
}

async function assignedLines(database: Database) {
  const rows = await database.db
    .selectDistinct({ line: terminals.serviceLineNumber, customer: terminals.assignedCustomerId })
    .from(terminals)
    .where(and(isNull(terminals.removedAt), isNotNull(terminals.assignedCustomerId)));
  return rows;
}

/** The step claims its marker first and writes its summary line last. */
async function waitForHandOut(database: Database) {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const marker = (await database.db.execute(sql`SELECT value FROM app_meta WHERE key = ${DEMO_TERMINALS_KEY}`)) as unknown as { rows: unknown[] };
    const [summary] = await database.db.select().from(auditLog).where(eq(auditLog.action, 'system.demo_terminals_assigned'));
    if (summary) {
      expect(marker.rows).toHaveLength(1);
      return summary.after as { customers: number; lines: number };
    }
    if (Date.now() > deadline) throw new Error('the demo terminals were not assigned');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('demo terminals', () => {
  it("hands two thirds of the first sync's lines to the active, assignable demo customers, audited as the system, once", async () => {
    const { app, database, handle } = await openPortal({ SEED_DEMO: '1' });
    expect((await waitForLatest(database.db, 'inventory')).status).toBe('succeeded');
    const summary = await waitForHandOut(database);
    await waitForLatest(database.db, 'usage');

    const lines = (await database.db.selectDistinct({ line: terminals.serviceLineNumber }).from(terminals).where(and(isNull(terminals.removedAt), isNotNull(terminals.serviceLineNumber)))).length;
    const held = await assignedLines(database);
    expect(held.length).toBe(Math.floor((lines * 2) / 3));
    expect(summary.lines).toBe(held.length);

    const owners = await database.db.select().from(customers);
    const byId = new Map(owners.map((c) => [c.id, c]));
    for (const { customer } of held) {
      const owner = byId.get(customer!)!;
      expect(owner).toMatchObject({ isActive: true, blockedEnabled: false, deletedAt: null });
      expect(owner.accountExpiresAt === null || owner.accountExpiresAt.getTime() > Date.parse(SYNC_TEST_TIME)).toBe(true);
    }
    const perCustomer = [...new Set(held.map((h) => h.customer))].map((id) => held.filter((h) => h.customer === id).length);
    expect(Math.min(...perCustomer)).toBeGreaterThanOrEqual(1);
    expect(Math.max(...perCustomer)).toBeLessThanOrEqual(9);

    const audit = await database.db.select().from(auditLog).where(eq(auditLog.action, 'terminal.assigned'));
    expect(audit.length).toBeGreaterThan(0);
    expect(audit.every((row) => row.actorType === 'system' && row.actorId === null && row.ip === null)).toBe(true);

    // A later sync, or the service asked again, hands out nothing more.
    expect(await app.services.demoTerminals.assignOnce()).toBe(0);
    await app.close();
    const again = await openPortal({ SEED_DEMO: '1' }, handle);
    expect(await again.app.services.demoTerminals.assignOnce()).toBe(0);
    expect((await assignedLines(database)).length).toBe(held.length);
    await again.app.close();
  });

  it('leaves every terminal free on a database without demo data', async () => {
    const { app, database } = await openPortal({ SEED_DEMO: '0' });
    expect((await waitForLatest(database.db, 'inventory')).status).toBe('succeeded');
    await waitForLatest(database.db, 'usage');
    expect(await app.services.demoTerminals.assignOnce()).toBe(0);
    expect(await assignedLines(database)).toEqual([]);
    await app.close();
  });

  it('plans two to nine lines a customer, in order, up to two thirds of the lines, the same way every time', () => {
    const lines = Array.from({ length: 90 }, (_, i) => `AST-${String(i).padStart(6, '0')}-00000-00`);
    const ids = Array.from({ length: 40 }, (_, i) => `c${i}`);
    const plan = planDemoAssignments(ids, lines);
    expect(plan.flatMap((p) => p.lines)).toEqual(lines.slice(0, 60));
    expect(plan.map((p) => p.customerId)).toEqual(ids.slice(0, plan.length));
    expect(plan.slice(0, -1).every((p) => p.lines.length >= 2 && p.lines.length <= 9)).toBe(true);
    expect(planDemoAssignments(ids, lines)).toEqual(plan);
    // Few customers: each gets a handful and the rest stays free.
    const few = planDemoAssignments(['a', 'b'], lines);
    expect(few).toHaveLength(2);
    expect(few.flatMap((p) => p.lines).length).toBeLessThanOrEqual(18);
    expect(planDemoAssignments([], lines)).toEqual([]);
    expect(planDemoAssignments(ids, [])).toEqual([]);
  });
});
