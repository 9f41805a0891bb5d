// The fleet summaries under concurrent writers (PostgreSQL only: PGlite has one connection, so its
// transactions never overlap). A sync batch and an administrator's assignment each write several
// terminal rows in one transaction; what the summaries' triggers write must not make two such
// transactions wait on each other in a circle (a deadlock aborts one of them: a failed sync run or
// a 500 on the assignment), and the figures must be exact once both have committed.
import { eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../server/db/client';
import { transactionRetryingConflicts } from '../../server/db/conflicts';
import { terminals } from '../../server/db/schema';
import { rowsOf } from '../../server/db/repositories/results';
import { dayOf } from '../../server/services/terminals';
import { idOf, insertTerminals, lineOf, terminalRow } from '../fixtures/terminals';
import type { SyncJob } from '../../src/domain/terminals';
import type { RunningSimulator } from '../../server/simulator';
import { createTestContext, TEST_DATABASE_URL, type TestContext } from './helpers';
import { SYNC_TEST_TIME, fastClient, runIdsOf, startFleet, waitForLatest, waitForRun } from './terminal-sync-fixtures';

let ctx: TestContext;
let customer: string;

beforeAll(async () => {
  if (!TEST_DATABASE_URL) return;
  ctx = await createTestContext();
  customer = (await ctx.createCustomer({ name: 'Ana Lima', email: 'ana@example.com', company: 'Co', password: null, isActive: true })).id;
});
afterAll(async () => {
  await ctx?.close();
});

const db = () => ctx.database.db;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function counted(): Promise<{ total: number; assigned: number; synced: number; pending: number }> {
  const [row] = rowsOf<{ total: number; assigned: number; synced: number; pending: number }>(
    await db().execute(sql`
      SELECT count(*)::int AS total, (count(*) FILTER (WHERE assigned_customer_id IS NOT NULL))::int AS assigned,
        (count(*) FILTER (WHERE sync_status = 'synced'))::int AS synced, (count(*) FILTER (WHERE sync_status = 'pending'))::int AS pending
      FROM terminals WHERE removed_at IS NULL`),
  );
  return row!;
}

/**
 * Transaction A writes terminal `x`, then B writes `y` (and commits), then A writes `y` too: A
 * waits for B, which must be able to finish. Both answer; none is aborted.
 */
async function interleave(x: string, y: string): Promise<PromiseSettledResult<void>[]> {
  let aWrote!: () => void;
  const aHasWritten = new Promise<void>((resolve) => (aWrote = resolve));
  let bStarted!: () => void;
  const bHasStarted = new Promise<void>((resolve) => (bStarted = resolve));
  const a = db().transaction(async (tx: Db) => {
    // A sync batch: the batch's upsert, then the terminals that failed it.
    await tx.update(terminals).set({ syncStatus: 'pending' }).where(eq(terminals.userTerminalId, x));
    aWrote();
    await bHasStarted;
    // Long enough for B's statement to reach whatever it would wait for.
    await sleep(300);
    await tx.update(terminals).set({ syncStatus: 'error' }).where(eq(terminals.userTerminalId, y));
  });
  const b = (async () => {
    await aHasWritten;
    await db().transaction(async (tx: Db) => {
      const write = tx.update(terminals).set({ assignedCustomerId: customer, assignedAt: new Date() }).where(eq(terminals.userTerminalId, y));
      bStarted();
      await write;
    });
  })();
  return Promise.allSettled([a, b]);
}

describe.skipIf(!TEST_DATABASE_URL)('fleet summaries with overlapping writers', () => {
  it.each([
    ['on different lines', 1, 2, 101, 102],
    ['on one line', 3, 4, 103, 103],
  ])('two transactions writing terminals %s both commit, and the counts stay exact', async (_name, xn, yn, xl, yl) => {
    const [x, y] = [idOf(xn), idOf(yn)];
    await insertTerminals(db(), [terminalRow({ userTerminalId: x, serviceLineNumber: lineOf(xl) }), terminalRow({ userTerminalId: y, serviceLineNumber: lineOf(yl) })]);
    const outcomes = await interleave(x, y);
    expect(outcomes.map((o) => (o.status === 'rejected' ? String((o.reason as Error).cause ?? o.reason) : 'ok'))).toEqual(['ok', 'ok']);
    const rows = await db().select({ id: terminals.userTerminalId, status: terminals.syncStatus, holder: terminals.assignedCustomerId }).from(terminals).where(inArray(terminals.userTerminalId, [x, y]));
    expect(rows.sort((p, q) => p.id.localeCompare(q.id))).toEqual([
      { id: x, status: 'pending', holder: null },
      { id: y, status: 'error', holder: customer },
    ]);
    expect(await ctx.app.repos.terminals.fleetFigures(dayOf(ctx.clock.now()))).toMatchObject(await counted());
  });

  it('a transaction PostgreSQL ends as a deadlock\'s victim runs again from its start and commits', async () => {
    const [x, y] = [idOf(150), idOf(151)];
    await insertTerminals(db(), [terminalRow({ userTerminalId: x, serviceLineNumber: lineOf(150) }), terminalRow({ userTerminalId: y, serviceLineNumber: lineOf(151) })]);
    const latch = () => {
      let open!: () => void;
      return { opened: new Promise<void>((resolve) => (open = resolve)), open: () => open() };
    };
    const [aHolds, bHolds] = [latch(), latch()];
    const attempts = { a: 0, b: 0 };
    // A and B each lock one terminal, then want the other's: a circle PostgreSQL breaks by
    // ending one of them. The victim's second attempt finds the way clear.
    const a = transactionRetryingConflicts(db(), async (tx) => {
      attempts.a += 1;
      await tx.update(terminals).set({ syncStatus: 'pending' }).where(eq(terminals.userTerminalId, x));
      if (attempts.a === 1) {
        aHolds.open();
        await bHolds.opened;
      }
      await tx.update(terminals).set({ syncStatus: 'error' }).where(eq(terminals.userTerminalId, y));
    });
    const b = transactionRetryingConflicts(db(), async (tx) => {
      attempts.b += 1;
      await tx.update(terminals).set({ assignedCustomerId: customer, assignedAt: new Date() }).where(eq(terminals.userTerminalId, y));
      if (attempts.b === 1) {
        bHolds.open();
        await aHolds.opened;
      }
      await tx.update(terminals).set({ assignedCustomerId: customer, assignedAt: new Date() }).where(eq(terminals.userTerminalId, x));
    });
    expect((await Promise.allSettled([a, b])).map((o) => o.status)).toEqual(['fulfilled', 'fulfilled']);
    expect(attempts.a + attempts.b).toBe(3);
    const rows = await db().select({ id: terminals.userTerminalId, status: terminals.syncStatus, holder: terminals.assignedCustomerId }).from(terminals).where(inArray(terminals.userTerminalId, [x, y]));
    expect(rows.sort((p, q) => p.id.localeCompare(q.id))).toEqual([
      { id: x, status: 'pending', holder: customer },
      { id: y, status: 'error', holder: customer },
    ]);
    expect(await ctx.app.repos.terminals.fleetFigures(dayOf(ctx.clock.now()))).toMatchObject(await counted());
  });

  it('many writers at once: every transaction commits and the counts equal a count from scratch', async () => {
    const ids = Array.from({ length: 60 }, (_, i) => idOf(200 + i));
    await insertTerminals(db(), ids.map((id, i) => terminalRow({ userTerminalId: id, serviceLineNumber: lineOf(300 + (i % 7)) })));
    // Each writer changes a handful of the same terminals, in id order as the server's writes do
    // (so the terminal rows themselves are always locked in one order).
    const writer = async (k: number) => {
      const mine = ids.filter((_, i) => (i * 7 + k) % 3 === 0);
      await db().transaction(async (tx: Db) => {
        for (const id of mine.slice(0, 6)) {
          await tx
            .update(terminals)
            .set(k % 2 === 0 ? { syncStatus: k % 4 === 0 ? 'pending' : 'synced' } : { assignedCustomerId: k % 3 === 0 ? null : customer, assignedAt: k % 3 === 0 ? null : new Date() })
            .where(eq(terminals.userTerminalId, id));
          await sleep(5);
        }
      });
    };
    const outcomes = await Promise.allSettled(Array.from({ length: 12 }, (_, k) => writer(k)));
    const failures = outcomes.flatMap((o) => (o.status === 'rejected' ? [String((o.reason as Error).cause ?? o.reason)] : []));
    expect(failures).toEqual([]);
    expect(await ctx.app.repos.terminals.fleetFigures(dayOf(ctx.clock.now()))).toMatchObject(await counted());
  });
});

describe.skipIf(!TEST_DATABASE_URL)('a sync run writing while administrators assign lines', () => {
  let sim: RunningSimulator;
  let app: TestContext;
  let admin: string;
  let holder: string;

  beforeAll(async () => {
    if (!TEST_DATABASE_URL) return;
    sim = await startFleet({ seed: 'summaries-concurrency', terminals: 600 });
    const client = fastClient(sim);
    app = await createTestContext({ now: SYNC_TEST_TIME, env: { SYNC_INTERVAL: 'off' }, provider: { kind: 'simulator', client: () => client } });
    const created = await app.createAdmin();
    admin = (await app.login('admin', created.email, created.password)).token!;
    holder = (await app.createCustomer({ name: 'Bruno Okafor', email: 'bruno@example.com', company: 'Co', password: null, isActive: true })).id;
  });
  afterAll(async () => {
    await app?.close();
    await sim?.close();
  });

  async function sync(): Promise<SyncJob> {
    const usageRuns = await runIdsOf(app.database.db, 'usage');
    const res = await app.request({ method: 'POST', url: '/api/v1/terminals/sync', token: admin });
    expect(res.statusCode).toBe(202);
    const job = await waitForRun(app, admin, (res.json().data as SyncJob).id, 60_000);
    if (job.status === 'succeeded') await waitForLatest(app.database.db, 'usage', 60_000, usageRuns);
    return job;
  }

  it('every assignment answers 200, the run succeeds, and the figures equal a count from scratch', async () => {
    expect((await sync()).status).toBe('succeeded');
    const lines = rowsOf<{ line: string }>(
      await app.database.db.execute(sql`SELECT DISTINCT service_line_number AS line FROM terminals WHERE removed_at IS NULL AND service_line_number IS NOT NULL ORDER BY 1`),
    ).map((r) => r.line);
    // Every terminal looks changed to the next run, so it rewrites every row in batches.
    await app.database.db.execute(sql`UPDATE terminals SET content_hash = 'before'`);
    // Disjoint sets of lines, each listed in reverse so no request locks in the sync's order.
    const sets = Array.from({ length: 24 }, (_, k) => lines.filter((_, i) => i % 24 === k).slice(0, 8).reverse());
    const run = sync();
    const answers = await Promise.all(
      sets.map(async (set, k) => {
        const assigned = await app.request({ method: 'POST', url: '/api/v1/terminals/customers/assign-terminals', token: admin, payload: { customerUuid: holder, serviceLineNumbers: set } });
        if (k % 2 === 1 || assigned.statusCode !== 200) return [assigned.statusCode];
        const back = await app.request({ method: 'POST', url: '/api/v1/terminals/customers/unassign-terminal', token: admin, payload: { customerUuid: holder, serviceLineNumber: set[0] } });
        return [assigned.statusCode, back.statusCode];
      }),
    );
    expect(answers.flat().filter((status) => status !== 200)).toEqual([]);
    // The whole run on a failure: its message says what aborted it.
    expect(await run).toMatchObject({ status: 'succeeded' });
    const [counts] = rowsOf<{ total: number; assigned: number; synced: number }>(
      await app.database.db.execute(sql`
        SELECT count(*)::int AS total, (count(*) FILTER (WHERE assigned_customer_id IS NOT NULL))::int AS assigned,
          (count(*) FILTER (WHERE sync_status = 'synced'))::int AS synced
        FROM terminals WHERE removed_at IS NULL`),
    );
    expect(await app.app.repos.terminals.fleetFigures(dayOf(app.clock.now()))).toMatchObject(counts!);
  });
});
