// The load script's own code (bench/load), run briefly so it cannot rot: 10 keep-alive
// connections for 2 s of the mixed workload on a real loopback listener end with zero errors and
// every acknowledged write found in the database; and the write check is not vacuous: a lost
// write afterwards is reported. Latencies are printed by the bench, never asserted here.
// In-memory PGlite (or PostgreSQL with TEST_DATABASE_URL): an on-disk directory would add its
// initdb (~3x the in-memory one) to CI for nothing this test checks; the bench itself uses one.
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadFailed, runLoad, type LoadRun } from '../../bench/load/run';
import { verifyWrites } from '../../bench/load/verify';
import type { Ledger } from '../../bench/load/workload';
import { createTestDatabase, type TestDatabase } from './helpers';

const CONNECTIONS = 10;

describe('the load script', () => {
  let testDb: TestDatabase;
  let run: LoadRun;

  beforeAll(async () => {
    testDb = await createTestDatabase();
    // A small pool, so connections also contend for the same lines.
    run = await runLoad(testDb.database, { connections: CONNECTIONS, durationMs: 2_000, lines: 60, backgroundCustomers: 100, admins: 2, usageDays: 5 });
  });

  afterAll(async () => {
    await testDb?.drop();
  });

  it('runs the mixed workload over keep-alive connections with zero errors and stops by itself', () => {
    const { report } = run;
    expect(report.errorSamples).toEqual([]);
    expect(report.errors).toBe(0);
    expect(report.safetyStop).toBe(false);
    // Each connection runs at least once: the clock starts after every socket is open.
    expect(report.requests).toBeGreaterThanOrEqual(CONNECTIONS);
    // Keep-alive: the connections' sockets are reused, never more than one each.
    expect(report.socketsAccepted).toBeGreaterThan(0);
    expect(report.socketsAccepted).toBeLessThanOrEqual(CONNECTIONS);
    expect(report.writes.acknowledged).toBeGreaterThan(0);
    expect(loadFailed(report)).toBe(false);
  });

  it('finds every acknowledged write in the database', () => {
    const { writes } = run.report;
    expect(writes.problemSamples).toEqual([]);
    expect(writes.verified).toBe(writes.acknowledged);
  });

  it('reports writes the database does not show: a lost customer, a line freed or taken behind its back', async () => {
    const { ledger, seeded } = run;
    const { db } = testDb.database;
    // Built here rather than drawn from the random mix, so the check is proven on every run.
    const lostCustomer = randomUUID();
    const [freedLine, takenLine] = seeded.lines.filter((line) => !ledger.holders.has(line));
    const owner = seeded.ownedCustomers[0]!;
    const tampered: Ledger = {
      ...ledger,
      created: new Map([...ledger.created, [lostCustomer, `${seeded.createdEmailPrefix}lost@bench.example`]]),
      // Acknowledged as assigned, but the database never saw it.
      holders: new Map([...ledger.holders, [freedLine!, owner]]),
      assigned: new Map([...ledger.assigned, [freedLine!, (ledger.assigned.get(freedLine!) ?? 0) + 1]]),
      writes: [...ledger.writes, { kind: 'customers.create', customerId: lostCustomer }, { kind: 'terminals.assign', lines: [freedLine!] }],
    };
    // Taken without any acknowledged write.
    await db.execute(sql`UPDATE terminals SET assigned_customer_id = ${owner}, assigned_at = now() WHERE service_line_number = ${takenLine}`);

    const check = await verifyWrites(testDb.database, tampered, seeded);

    expect(check.acknowledged).toBe(run.report.writes.acknowledged + 2);
    // At least the two invented writes fail; earlier writes on the two lines fail with them.
    expect(check.acknowledged - check.verified).toBeGreaterThanOrEqual(2);
    expect(check.byKind['customers.create'].verified).toBe(check.byKind['customers.create'].acknowledged - 1);
    expect(check.problemSamples).toEqual(
      expect.arrayContaining([
        expect.stringContaining(`(${lostCustomer}) is not stored`),
        expect.stringContaining(`line ${freedLine} is held by nobody, acknowledged ${owner}`),
        expect.stringContaining(`line ${takenLine} is held by ${owner}, acknowledged free`),
      ]),
    );
  });
});
