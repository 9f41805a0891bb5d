// The Account filter and column of a customer's terminals and usage, the requests queue, the
// alerts and the bulk runs, over HTTP on a portal holding two provider accounts: a customer holds
// a line of each, and every list tells them apart by the account's name and filters by its id;
// the customer's own area shows both lines and no account.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AlertListWire } from '../../src/domain/alerts';
import type { BulkOperationWire } from '../../src/domain/bulk';
import type { AssignedTerminalsPage, CustomerUsagePage } from '../../src/domain/customer-terminals';
import type { RequestQueueWire } from '../../src/domain/requests';
import { insertServiceLines, insertTerminals, terminalRow } from '../fixtures/terminals';
import { BAD_ACCOUNT, LINE_ONE, LINE_TWO, SECOND, portalWithTwoAccounts, type TwoAccounts } from './account-lists';
import type { TestContext } from './helpers';

let ctx: TestContext;
let get: TwoAccounts['get'];
let refusal: TwoAccounts['refusal'];
let token: string;
let firstName: string;
let ana: string;
let anaLogin: { email: string; password: string };
const LINE_GONE = 'AST-930003-00003-03';

beforeAll(async () => {
  ({ ctx, get, refusal, token, firstName } = await portalWithTwoAccounts());
  const created = await ctx.createCustomer({ name: 'Ana Accounts', isActive: true });
  ana = created.id;
  anaLogin = { email: created.email, password: created.password };
  const db = ctx.database.db;
  await insertServiceLines(db, [{ serviceLineNumber: LINE_ONE }, { serviceLineNumber: LINE_TWO, accountId: SECOND.id }]);
  const held = { assignedCustomerId: ana, assignedAt: new Date('2026-02-01T00:00:00Z') };
  await insertTerminals(db, [
    terminalRow({ userTerminalId: 'UT-ACC-ONE', serviceLineNumber: LINE_ONE, ...held }),
    terminalRow({ userTerminalId: 'UT-ACC-TWO', serviceLineNumber: LINE_TWO, accountId: SECOND.id, ...held }),
  ]);
  // A request on each account's line, and one on a line the portal no longer knows.
  await db.execute(sql`
    INSERT INTO customer_requests (customer_id, service_line_number, kind, product_id, created_at)
    VALUES (${ana}, ${LINE_ONE}, 'plan_change', 'PLAN-A', '2026-03-01T10:00:00Z'),
           (${ana}, ${LINE_TWO}, 'plan_change', 'PLAN-A', '2026-03-01T11:00:00Z'),
           (${ana}, ${LINE_GONE}, 'plan_change', 'PLAN-A', '2026-03-01T12:00:00Z')`);
  // A line's alert (account one), a terminal's alert (account two, by its terminal) and a customer's (none).
  await db.execute(sql`
    INSERT INTO alerts (kind, level, severity, target_type, target_key, period_key, service_line_number, user_terminal_id, customer_id, message, opened_at)
    VALUES ('usage', 80, 'warning', 'line', ${LINE_ONE}, 'p1', ${LINE_ONE}, NULL, ${ana}, 'Line one used 80 %', '2026-03-01T10:00:00Z'),
           ('offline', 0, 'critical', 'terminal', 'UT-ACC-TWO', 'p2', NULL, 'UT-ACC-TWO', ${ana}, 'Terminal two offline', '2026-03-01T11:00:00Z'),
           ('account_expiring', 0, 'warning', 'customer', ${ana}, 'p3', NULL, NULL, ${ana}, 'Account expires soon', '2026-03-01T12:00:00Z')`);
}, 60_000);

afterAll(async () => {
  await ctx?.close();
});

describe("a customer's terminals and usage", () => {
  const base = () => `/terminals/customers/${ana}`;
  const MONTH = 'billing_cycle_start=2026-03-01&billing_cycle_end=2026-03-31';

  it("names each terminal's account and filters by it; the summary still counts every terminal", async () => {
    const all = await get<CustomerUsagePage>(`${base()}/usage/page?${MONTH}`);
    expect(all.records.map((r) => [r.terminalId, r.accountId, r.accountName])).toEqual([
      ['UT-ACC-ONE', 1, firstName],
      ['UT-ACC-TWO', SECOND.id, SECOND.name],
    ]);
    const second = await get<CustomerUsagePage>(`${base()}/usage/page?${MONTH}&account_id=${SECOND.id}`);
    expect(second.records.map((r) => r.terminalId)).toEqual(['UT-ACC-TWO']);
    expect(second.pagination.total).toBe(1);
    expect(second.summary.totalTerminals).toBe(2);
    // An account that does not exist matches nothing.
    expect((await get<CustomerUsagePage>(`${base()}/usage/page?${MONTH}&account_id=99`)).records).toEqual([]);

    const assigned = await get<AssignedTerminalsPage>(`${base()}/terminals/page?account_id=1`);
    expect(assigned.records.map((r) => [r.deviceId, r.accountName])).toEqual([['UT-ACC-ONE', firstName]]);
    expect(assigned.pagination.total).toBe(1);
  });

  it("exports the chosen account's rows only", async () => {
    const response = await ctx.request({ method: 'GET', url: `/api/v1${base()}/usage/export.csv?${MONTH}&account_id=${SECOND.id}`, token });
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain(LINE_TWO);
    expect(response.body).not.toContain(LINE_ONE);
  });

  it('refuses an account id that is not one, with 400 and the reason', async () => {
    expect(await refusal(`${base()}/usage/page?${MONTH}&account_id=0`)).toEqual({ status: 400, message: `Validation failed: ${BAD_ACCOUNT}` });
    expect(await refusal(`${base()}/terminals/page?account_id=two`)).toMatchObject({ status: 400 });
    expect(await refusal(`${base()}/usage/export.csv?account_id=1.5`)).toMatchObject({ status: 400 });
  });
});

describe('the requests queue', () => {
  it("names each request's account (none for a line no longer known) and filters by it, counts too", async () => {
    const all = await get<RequestQueueWire>('/requests?status=all');
    expect(all.requests.map((r) => [r.serviceLineNumber, r.accountName])).toEqual([
      [LINE_GONE, null],
      [LINE_TWO, SECOND.name],
      [LINE_ONE, firstName],
    ]);
    const second = await get<RequestQueueWire>(`/requests?status=all&account_id=${SECOND.id}`);
    expect(second.requests.map((r) => [r.serviceLineNumber, r.accountId])).toEqual([[LINE_TWO, SECOND.id]]);
    expect(second.pagination.total).toBe(1);
    expect(second.counts.pending).toBe(1);
    expect(await refusal('/requests?account_id=-1')).toEqual({ status: 400, message: `Validation failed: ${BAD_ACCOUNT}` });
  });
});

describe('the alerts', () => {
  it("names the account of each alert's line or terminal, and filters by it", async () => {
    const all = await get<AlertListWire>('/alerts?status=all');
    expect(all.alerts.map((a) => [a.targetType, a.accountName])).toEqual([
      ['customer', null],
      ['terminal', SECOND.name],
      ['line', firstName],
    ]);
    const second = await get<AlertListWire>(`/alerts?status=all&account_id=${SECOND.id}`);
    expect(second.alerts.map((a) => a.targetKey)).toEqual(['UT-ACC-TWO']);
    expect(second.counts).toEqual({ open: 1, acknowledged: 0, resolved: 0 });
  });

  it("exports the chosen account's alerts only, and refuses a bad account id", async () => {
    const response = await ctx.request({ method: 'GET', url: '/api/v1/alerts/export.csv?status=all&account_id=1', token });
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain(LINE_ONE);
    expect(response.body).not.toContain('UT-ACC-TWO');
    expect(await refusal('/alerts?account_id=abc')).toEqual({ status: 400, message: `Validation failed: ${BAD_ACCOUNT}` });
  });
});

describe('the bulk runs', () => {
  it('name the accounts whose lines each run named; a customer action names none', async () => {
    const repo = ctx.app.repos.bulkOperations;
    const at = ctx.clock.now();
    const skipped = { status: 'skipped' as const, message: 'not run here' };
    await repo.transaction((tx) =>
      repo.create(
        { kind: 'assign', createdBy: null, createdIp: null, requestId: null, at },
        [
          { line: 2, input: { customer: ana, serviceLine: LINE_TWO }, ...skipped },
          { line: 3, input: { customer: ana, serviceLine: LINE_ONE }, ...skipped },
          { line: 4, input: { customer: ana, serviceLine: LINE_GONE }, ...skipped },
        ],
        tx,
      ),
    );
    ctx.clock.advanceMinutes(1);
    await repo.transaction((tx) =>
      repo.create({ kind: 'unblock', createdBy: null, createdIp: null, requestId: null, at: ctx.clock.now() }, [{ line: 2, input: { customer: ana }, ...skipped }], tx),
    );
    const runs = await get<BulkOperationWire[]>('/bulk');
    expect(runs.map((run) => [run.kind, run.accounts])).toEqual([
      ['unblock', []],
      ['assign', [{ id: SECOND.id, name: SECOND.name }, { id: 1, name: firstName }].sort((a, b) => a.name.localeCompare(b.name))],
    ]);
  });
});

describe('the customer area across accounts', () => {
  it("shows a customer who holds lines of two accounts both, and names neither account", async () => {
    const login = await ctx.login('customer', anaLogin.email, anaLogin.password);
    const response = await ctx.request({ method: 'GET', url: '/api/v1/my/terminals', token: login.token! });
    expect(response.statusCode, response.body).toBe(200);
    const mine = (response.json() as { data: Record<string, unknown>[] }).data;
    expect(mine.map((t) => t.terminalId).sort()).toEqual(['UT-ACC-ONE', 'UT-ACC-TWO']);
    expect(response.body).not.toContain(SECOND.name);
    expect(mine.every((t) => !('accountId' in t) && !('accountName' in t))).toBe(true);
  });
});
