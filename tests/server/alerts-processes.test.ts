// Two servers on one database evaluating at the same moment (two connection pools on
// PostgreSQL; on PGlite, which allows one handle, two apps on the same one): every line that
// crossed a level gets exactly one alert, one email to the subscribed admin and one webhook event,
// however the two runs interleave — the advisory lock orders the batches and the unique index
// keeps a second alert out.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app';
import type { Database } from '../../server/db/client';
import { idOf, insertServiceLines, insertTerminals, insertUsageCycles, lineOf, terminalRow } from '../fixtures/terminals';
import { createClock, createTestDatabase, testConfig, type TestDatabase } from './helpers';

let testDb: TestDatabase;
let second: Database;
const apps: Awaited<ReturnType<typeof buildApp>>[] = [];
const clock = createClock('2026-03-15T12:00:00.000Z');
const LINES = Array.from({ length: 40 }, (_, i) => i + 1);

async function server(database: Database) {
  const config = await testConfig({ SYNC_INTERVAL: 'off', WEBHOOK_ALLOW_HTTP_LOCALHOST: 'true' });
  const app = await buildApp({ config, database, now: clock.now, logger: false, provider: null });
  await app.ready();
  apps.push(app);
  return app;
}

const count = async (query: ReturnType<typeof sql>) => Number(((await testDb.database.db.execute(query)) as unknown as { rows: { n: number | string }[] }).rows[0]!.n);

beforeAll(async () => {
  testDb = await createTestDatabase();
  second = await testDb.connectAgain();
  const db = testDb.database.db;
  await insertServiceLines(db, LINES.map((n) => ({ serviceLineNumber: lineOf(n) })));
  await insertTerminals(db, LINES.map((n) => terminalRow({ userTerminalId: idOf(n), serviceLineNumber: lineOf(n) })));
  await insertUsageCycles(db, LINES.map((n) => ({ serviceLineNumber: lineOf(n), cycleStart: '2026-03-01', cycleEnd: '2026-03-31', priorityGb: 10, usageLimitGb: 100 })));
}, 60_000);

afterAll(async () => {
  for (const app of apps) await app.close();
  await second?.close();
  await testDb?.drop();
});

describe('two servers evaluating alerts on one database', () => {
  it('open each alert once, with one email and one webhook event, however often and from wherever they run', async () => {
    const a = await server(testDb.database);
    const b = await server(second);
    const db = testDb.database.db;
    await db.execute(sql`INSERT INTO users (email, name, role) VALUES ('ops@example.com', 'Ops', 'admin')`);
    await db.execute(sql`INSERT INTO alert_subscriptions (user_id, kind) SELECT id, 'usage' FROM users WHERE email = 'ops@example.com'`);
    await db.execute(sql`UPDATE alert_rules SET enabled = false WHERE kind = 'overage_forecast'`);
    const admin = await db.execute(sql`SELECT id::text AS id FROM users WHERE email = 'ops@example.com'`);
    const adminId = (admin as unknown as { rows: { id: string }[] }).rows[0]!.id;
    await a.services.webhooks.create({ url: 'http://127.0.0.1:9/hooks', description: 'sink' }, { actor: { type: 'user', id: adminId }, ip: null, requestId: null });
    await Promise.all([a.services.alerts.evaluate(), b.services.alerts.evaluate()]);

    // Half the lines cross 80 %, at once, then both servers evaluate, three times over.
    await db.execute(sql`UPDATE service_line_usage_cycles SET priority_gb = 85 WHERE service_line_number = ANY(${sql.param(LINES.filter((n) => n % 2 === 0).map(lineOf))}::text[])`);
    for (let round = 0; round < 3; round++) await Promise.all([a.services.alerts.evaluate(), b.services.alerts.evaluate(), a.services.alerts.evaluate()]);

    expect(await count(sql`SELECT count(*)::int AS n FROM alerts`)).toBe(20);
    expect(await count(sql`SELECT count(DISTINCT service_line_number)::int AS n FROM alerts`)).toBe(20);
    // 20 alerts for one reader in one run: one digest, not 20 emails, and never a second digest.
    expect(await count(sql`SELECT count(*)::int AS n FROM email_outbox WHERE recipient = 'ops@example.com'`)).toBe(1);
    expect(await count(sql`SELECT count(*)::int AS n FROM webhook_events WHERE type = 'alert.opened'`)).toBe(20);
    expect(await count(sql`SELECT count(*)::int AS n FROM webhook_deliveries`)).toBe(20);
  }, 60_000);
});
