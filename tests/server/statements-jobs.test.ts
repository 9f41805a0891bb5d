// The statements' job on the real queue: a demo database's first start syncs, hands its
// lines to the demo customers, and only then bills — so February, closed on that first start
// (its final usage came in with the first usage sync), holds the demo customers' lines, and March's
// drafts are already what a refresh would write; a sync later on refreshes the drafts again; and
// with a start-up step slower than the first usage sync, the first billing run still waits for it.
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app';
import { bootstrap } from '../../server/bootstrap';
import { createSyncJobs } from '../../server/jobs';
import type { RunningSimulator } from '../../server/simulator';
import { createClock, createTestDatabase, testConfig, type TestDatabase } from './helpers';
import { fastClient, runIdsOf, startFleet, SYNC_TEST_TIME, waitForLatest } from './terminal-sync-fixtures';

let sim: RunningSimulator;
let testDb: TestDatabase;
let app: FastifyInstance;
const clock = createClock(SYNC_TEST_TIME);

const db = () => testDb.database.db;
const rows = async <T>(query: ReturnType<typeof sql>) => ((await db().execute(query)) as unknown as { rows: T[] }).rows;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Until the queue has no billing run waiting or running, and `ready` holds. */
async function billingSettled(ready: () => Promise<boolean>, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const [pending] = await rows<{ n: number }>(sql`SELECT count(*)::int AS n FROM job_queue.job WHERE name = 'billing-run' AND state IN ('created', 'retry', 'active')`);
    if (Number(pending!.n) === 0 && (await ready())) return;
    if (Date.now() > deadline) throw new Error('the billing runs did not settle');
    await sleep(100);
  }
}

beforeAll(async () => {
  sim = await startFleet({ terminals: 60 });
  testDb = await createTestDatabase();
  // Every product has a price from long before: a cycle can close as soon as its usage is in.
  await db().execute(sql`
    INSERT INTO billing_prices (product_reference_id, currency, monthly_minor, overage_per_gb_minor, top_up_minor, effective_from) VALUES
      ('SUB-METERED-50GB', 'USD', 7900, 500, 1500, '2000-01-01'),
      ('SUB-METERED-1TB', 'USD', 16900, 300, 1500, '2000-01-01'),
      ('SUB-PRIORITY-BLOCKS', 'USD', 3900, 700, 1200, '2000-01-01')`);
  const config = await testConfig({ SYNC_INTERVAL: '15m', SEED_DEMO: '1' });
  await bootstrap({ database: testDb.database, config, now: clock.now });
  const client = fastClient(sim);
  app = await buildApp({ config, database: testDb.database, now: clock.now, logger: false, provider: { kind: 'simulator', client: () => client } });
  await app.ready();
}, 120_000);

afterAll(async () => {
  await app?.close();
  await testDb?.drop();
  await sim?.close();
});

describe('billing on the job queue', () => {
  it("bills after the demo's first-start step: February closes with the demo customers' lines in it", async () => {
    expect((await waitForLatest(db(), 'inventory', 60_000)).status).toBe('succeeded');
    expect((await waitForLatest(db(), 'usage', 60_000)).status).toBe('succeeded');
    await billingSettled(async () => {
      const cycles = await rows<{ cycle: string; status: string; refreshed: boolean }>(sql`SELECT cycle, status, refreshed_at IS NOT NULL AS refreshed FROM billing_cycles`);
      return cycles.some((c) => c.cycle === '2026-02' && c.status === 'closed') && cycles.some((c) => c.cycle === '2026-03' && c.refreshed);
    });
    // The customers holding a line that had service in February, straight from the inventory.
    const holders = await rows<{ id: string }>(sql`
      SELECT DISTINCT h.customer_id::text AS id FROM service_lines l
      CROSS JOIN LATERAL (SELECT t.assigned_customer_id AS customer_id FROM terminals t
                          WHERE t.service_line_number = l.service_line_number AND t.removed_at IS NULL AND t.assigned_customer_id IS NOT NULL
                          ORDER BY t.user_terminal_id LIMIT 1) h
      WHERE l.start_date < '2026-03-01' AND (l.end_date IS NULL OR l.end_date >= '2026-02-01')`);
    expect(holders.length).toBeGreaterThan(0);
    const february = await rows<{ id: string; status: string; number: string | null }>(sql`
      SELECT customer_id::text AS id, status, number FROM billing_statements WHERE cycle = '2026-02'`);
    expect(february.map((s) => s.id).sort()).toEqual(holders.map((h) => h.id).sort());
    expect(february.every((s) => s.status === 'closed' && s.number !== null)).toBe(true);
    const [closer] = await rows<{ actor_type: string }>(sql`SELECT actor_type FROM audit_log WHERE action = 'billing.cycle_closed' AND target_id = '2026-02'`);
    expect(closer).toEqual({ actor_type: 'system' });
    // March's drafts are already what a refresh works out now.
    const march = await app.services.statements.refresh('2026-03');
    expect(march.statements).toBeGreaterThan(0);
    expect(march.changed).toBe(0);
  }, 120_000);

  it('refreshes the drafts after a sync: a line that changed hands moves to its new holder', async () => {
    const [draft] = await rows<{ customer: string; line: string }>(sql`
      SELECT s.customer_id::text AS customer, i.service_line_number AS line FROM billing_statements s
      JOIN billing_statement_items i ON i.statement_id = s.id
      WHERE s.cycle = '2026-03' AND i.kind = 'plan' ORDER BY i.service_line_number LIMIT 1`);
    const [other] = await rows<{ id: string }>(sql`SELECT id::text AS id FROM customers WHERE deleted_at IS NULL AND id <> ${draft!.customer}::uuid ORDER BY id LIMIT 1`);
    await db().execute(sql`UPDATE terminals SET assigned_customer_id = ${other!.id}::uuid WHERE service_line_number = ${draft!.line}`);
    const known = await runIdsOf(db(), 'inventory');
    const knownUsage = await runIdsOf(db(), 'usage');
    await app.services.terminalSync.startSync({ trigger: 'manual', requestedBy: null });
    expect((await waitForLatest(db(), 'inventory', 60_000, known)).status).toBe('succeeded');
    expect((await waitForLatest(db(), 'usage', 60_000, knownUsage)).status).toBe('succeeded');
    const holderOf = async () =>
      (
        await rows<{ customer: string }>(sql`
          SELECT s.customer_id::text AS customer FROM billing_statements s JOIN billing_statement_items i ON i.statement_id = s.id
          WHERE s.cycle = '2026-03' AND i.service_line_number = ${draft!.line} AND i.kind = 'plan'`)
      ).map((r) => r.customer);
    await billingSettled(async () => (await holderOf()).includes(other!.id));
    expect(await holderOf()).toEqual([other!.id]);
  }, 120_000);
});

describe('the first billing run after a fresh start', () => {
  it('waits for the start-up step after the first sync, however long it takes', async () => {
    const fresh = await createTestDatabase();
    const config = await testConfig({ SYNC_INTERVAL: '15m' });
    const client = fastClient(sim);
    const shell = await buildApp({ config, database: fresh.database, now: clock.now, logger: false, provider: { kind: 'simulator', client: () => client }, startSyncJobs: 'manual' });
    await shell.ready();
    const events: string[] = [];
    const jobs = createSyncJobs({
      database: fresh.database,
      repos: shell.repos,
      sync: shell.services.terminalSync,
      config,
      now: clock.now,
      log: { info: () => undefined, warn: () => undefined, error: () => undefined },
      options: { pollingIntervalSeconds: 0.5 },
      // Outlasts the usage run the inventory run queues just before it: ends only once that has.
      afterStartupSync: async () => {
        events.push('step started');
        await waitForLatest(fresh.database.db, 'usage', 60_000);
        events.push('step done');
      },
      billing: {
        run: async (reason) => {
          events.push(`billing ${reason}`);
        },
      },
    });
    shell.services.terminalSync.attachDispatcher(jobs);
    try {
      await jobs.start();
      const deadline = Date.now() + 60_000;
      while (!events.some((e) => e.startsWith('billing'))) {
        if (Date.now() > deadline) throw new Error(`no billing run: ${events.join(', ')}`);
        await sleep(50);
      }
      // The usage run ended while the step ran; its billing request waited for the step.
      expect((await waitForLatest(fresh.database.db, 'usage', 60_000)).status).toBe('succeeded');
      expect(events.slice(0, 3)).toEqual(['step started', 'step done', 'billing sync']);
    } finally {
      await jobs.stop();
      await shell.close();
      await fresh.drop();
    }
  }, 120_000);
});
