// Bulk actions on the real job queue with the provider simulator: a plan change for
// several lines runs as a `bulk-run` pg-boss job, each row through the subscriptions page's own
// plan change — the provider is asked, the stored line follows, the audit entry is the page's —
// and a row the provider or the portal refuses fails alone with its words while the rest go on.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BulkOperationWire, BulkRowsPage } from '../../src/domain/bulk';
import { SUBSCRIPTION_MESSAGES } from '../../src/domain/subscriptions';
import type { RunningSimulator } from '../../server/simulator';
import { BULK_SERVER_MESSAGES } from '../../server/services/bulk';
import { createTestContext, type TestContext } from './helpers';
import { fastClient, startFleet, SYNC_TEST_TIME, waitForLatest } from './terminal-sync-fixtures';

let sim: RunningSimulator;
let ctx: TestContext;
let token = '';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface SubscriptionRow {
  serviceLineNumber: string;
  productReferenceId: string | null;
  plan: string;
}

beforeAll(async () => {
  sim = await startFleet({ terminals: 12 });
  // The provider's own answer time: a loaded machine (the suite runs files side by side) can hold an
  // answer past the fast client's 3 s, and a plan change whose answer timed out is not sent again.
  const client = fastClient(sim, { timeoutMs: 15_000 });
  ctx = await createTestContext({ now: SYNC_TEST_TIME, provider: { kind: 'simulator', client: () => client } });
  const admin = await ctx.createAdmin({ name: 'Plan Mover', isActive: true });
  token = (await ctx.login('admin', admin.email, admin.password)).token!;
  // The first start of an empty inventory syncs it.
  expect((await waitForLatest(ctx.database.db, 'inventory', 60_000)).status).toBe('succeeded');
}, 120_000);

afterAll(async () => {
  await ctx?.close();
  await sim?.close();
});

describe('a bulk plan change on the job queue', () => {
  it('moves each line through the provider, fails the refused row with its reason, and reports every row', async () => {
    const get = async <T>(url: string) => (await ctx.request({ method: 'GET', url, token })).json().data as T;
    const { subscriptions } = await get<{ subscriptions: SubscriptionRow[] }>('/api/v1/subscriptions?limit=100');
    const plans = await get<{ productReferenceId: string; name: string }[]>('/api/v1/subscriptions/plans');
    const lines = [...new Map(subscriptions.filter((s) => s.productReferenceId).map((s) => [s.serviceLineNumber, s])).values()].slice(0, 3);
    expect(lines).toHaveLength(3);
    const other = (s: SubscriptionRow) => plans.find((p) => p.productReferenceId !== s.productReferenceId)!;
    const [a, b, same] = lines as [SubscriptionRow, SubscriptionRow, SubscriptionRow];
    const csv = [
      'service_line,plan',
      `${a.serviceLineNumber},${other(a).productReferenceId}`,
      `${b.serviceLineNumber},${other(b).productReferenceId}`,
      // Already on that plan: the page's own refusal.
      `${same.serviceLineNumber},${same.productReferenceId}`,
    ].join('\n');

    const started = await ctx.request({ method: 'POST', url: '/api/v1/bulk', token, payload: { kind: 'change-plan', csv } });
    expect(started.statusCode).toBe(202);
    const id = (started.json().data.operation as BulkOperationWire).id;
    let operation: BulkOperationWire;
    const deadline = Date.now() + 60_000;
    for (;;) {
      operation = await get<BulkOperationWire>(`/api/v1/bulk/${id}`);
      if (operation.status === 'done') break;
      if (Date.now() > deadline) throw new Error(`not done: ${JSON.stringify(operation)}`);
      await sleep(100);
    }
    // The rows first: a row that failed unexpectedly shows its reason.
    const { rows } = await get<BulkRowsPage>(`/api/v1/bulk/${id}/rows`);
    expect(rows.map((row) => [row.line, row.status, row.status === 'failed' ? row.message : null])).toEqual([
      [2, 'ok', null],
      [3, 'ok', null],
      [4, 'failed', SUBSCRIPTION_MESSAGES.samePlan],
    ]);
    expect(operation).toMatchObject({ total: 3, succeeded: 2, failed: 1, skipped: 0 });
    expect(rows[0]!.message).toBe(BULK_SERVER_MESSAGES.planChanged((await get<{ subscriptions: SubscriptionRow[] }>(`/api/v1/subscriptions?search=${a.serviceLineNumber}`)).subscriptions[0]!.plan));

    // The provider has each line on its new plan, and the portal's stored lines say so.
    const after = await get<{ subscriptions: SubscriptionRow[] }>('/api/v1/subscriptions?limit=100');
    const planOf = (line: string) => after.subscriptions.find((s) => s.serviceLineNumber === line)!.productReferenceId;
    expect(planOf(a.serviceLineNumber)).toBe(other(a).productReferenceId);
    expect(planOf(b.serviceLineNumber)).toBe(other(b).productReferenceId);
    expect(planOf(same.serviceLineNumber)).toBe(same.productReferenceId);

    // Ran by the queue, audited as the page's plan change under the starting request.
    const db = ctx.database.db;
    const jobs = (await db.execute(sql`SELECT state FROM job_queue.job WHERE name = 'bulk-run' AND data->>'operationId' = ${id}`)) as unknown as { rows: { state: string }[] };
    expect(jobs.rows.map((job) => job.state)).toContain('completed');
    const audited = (await db.execute(sql`
      SELECT a.target_id FROM audit_log a JOIN audit_log s ON s.request_id = a.request_id AND s.action = 'bulk.started' AND s.target_id = ${id}
      WHERE a.action = 'subscription.plan_changed' ORDER BY a.target_id`)) as unknown as { rows: { target_id: string }[] };
    expect(audited.rows.map((row) => row.target_id)).toEqual([a.serviceLineNumber, b.serviceLineNumber].sort());
  }, 120_000);
});
