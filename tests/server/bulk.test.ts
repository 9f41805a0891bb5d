// Bulk actions over HTTP and the database: the preview says what each row of a CSV will
// do, or why it cannot, and changes nothing; a run of 120 assignments (and the rows with problems,
// skipped) ends with a result per row, each assignment audited under the starting request's id;
// block, unblock and extend go through the single-row actions with their words; a row a dead
// process left half-done is failed, never run twice; and every bad input is a 4xx in the envelope.
// Without a provider there is no job queue: the run goes on in the server's process.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BULK_MESSAGES, BULK_MAX_CHARS, type BulkOperationWire, type BulkPreviewWire, type BulkRowsPage } from '../../src/domain/bulk';
import { ASSIGN_REASONS } from '../../src/domain/customer-terminals';
import { BULK_SERVER_MESSAGES } from '../../server/services/bulk';
import { insertTerminalsBulk, type BulkTerminal } from '../fixtures/terminals';
import { parseCsv } from '../fixtures/csv';
import { createTestContext, type TestContext } from './helpers';

// More than one page of results (100 a page), and each row still runs on its own: a larger run
// only repeats the same row 30 ms at a time.
const LINES = 120;
let ctx: TestContext;
let admin = '';
let customerToken = '';
const customers: Record<'north' | 'south' | 'blocked' | 'other', { id: string; email: string }> = {
  north: { id: '', email: '' },
  south: { id: '', email: '' },
  blocked: { id: '', email: '' },
  other: { id: '', email: '' },
};

const pad = (n: number) => String(n).padStart(5, '0');
const lineOf = (n: number) => `AST-9${pad(n)}-00000-00`;
const rows = async <T>(query: ReturnType<typeof sql>) => ((await ctx.database.db.execute(query)) as unknown as { rows: T[] }).rows;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function post(url: string, payload: unknown, token: string | null = admin) {
  return ctx.request({ method: 'POST', url, payload: payload as object, token });
}
async function get(url: string, token: string | null = admin) {
  return ctx.request({ method: 'GET', url, token });
}

async function finished(id: string, timeoutMs = 60_000): Promise<BulkOperationWire> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const operation = (await get(`/api/v1/bulk/${id}`)).json().data as BulkOperationWire;
    if (operation.status === 'done') return operation;
    if (Date.now() > deadline) throw new Error(`bulk action ${id} did not finish: ${JSON.stringify(operation)}`);
    await sleep(50);
  }
}

async function allRows(id: string, status?: string): Promise<BulkRowsPage['rows']> {
  const out: BulkRowsPage['rows'] = [];
  for (let page = 1; ; page++) {
    const data = (await get(`/api/v1/bulk/${id}/rows?page=${page}&limit=100${status ? `&status=${status}` : ''}`)).json().data as BulkRowsPage;
    out.push(...data.rows);
    if (out.length >= data.total || data.rows.length === 0) return out;
  }
}

beforeAll(async () => {
  ctx = await createTestContext({ now: '2026-03-02T09:00:00.000Z' });
  const created = await ctx.createAdmin({ name: 'Bulk Admin', isActive: true });
  admin = (await ctx.login('admin', created.email, created.password)).token!;
  for (const [key, row] of [
    ['north', { name: 'North Fleet', company: 'North' }],
    ['south', { name: 'South Fleet', company: 'South' }],
    ['blocked', { name: 'Blocked Fleet', company: 'Blocked', blockedEnabled: true, blockedReason: 'Unpaid', blockedAt: new Date('2026-02-01T00:00:00Z') }],
    ['other', { name: 'Other Holder', company: 'Other' }],
  ] as const) {
    const customer = await ctx.createCustomer({ ...row, isActive: true });
    customers[key] = { id: customer.id, email: customer.email };
    if (key === 'north') customerToken = (await ctx.login('customer', customer.email, customer.password)).token!;
  }
  // Lines 1–500 free; 501 held by another customer.
  const terminals: BulkTerminal[] = Array.from({ length: LINES + 1 }, (_, i) => ({
    userTerminalId: `UTB${pad(i + 1)}`,
    kitSerialNumber: `KITB${pad(i + 1)}`,
    dishSerialNumber: null,
    serviceLineNumber: lineOf(i + 1),
    active: true,
    condition: 'active',
    isPriority: false,
    assignedCustomerId: i === LINES ? customers.other.id : null,
    syncStatus: 'synced',
    lastSyncedAt: null,
    plan: 'Standard',
    terminalType: 'Standard',
    removed: false,
  }));
  await insertTerminalsBulk(ctx.database.db, terminals);
}, 120_000);

afterAll(async () => {
  await ctx?.close();
});

describe('the preview', () => {
  it('says what each row will do, or why it cannot, and changes nothing', async () => {
    const csv = [
      'Customer,Service Line',
      `${customers.north.email},${lineOf(1)}`,
      `${customers.north.id},${lineOf(2)}`,
      `nobody@example.test,${lineOf(3)}`,
      `${customers.north.email},not a line`,
      `${customers.south.email},${lineOf(1)}`,
      `${customers.south.email},AST-00000-00000-00`,
      '',
      `${customers.south.email}`,
    ].join('\n');
    const response = await post('/api/v1/bulk/preview', { kind: 'assign', csv });
    expect(response.statusCode).toBe(200);
    const preview = response.json().data as BulkPreviewWire;
    expect(preview.rows.map((row) => [row.line, row.problem])).toEqual([
      [2, null],
      [3, null],
      [4, BULK_MESSAGES.customerNotFound],
      [5, BULK_MESSAGES.serviceLineInvalid],
      [6, BULK_MESSAGES.repeats(2)],
      [7, BULK_MESSAGES.serviceLineNotFound],
      [9, BULK_MESSAGES.missing('service line')],
    ]);
    expect(preview.rows[0]!.action).toBe(`Assign ${lineOf(1)} to North Fleet (${customers.north.email})`);
    expect(preview).toMatchObject({ ready: 2, problems: 5 });
    const [{ n }] = (await rows<{ n: number }>(sql`SELECT count(*)::int AS n FROM terminals WHERE assigned_customer_id = ${customers.north.id}`)) as [{ n: number }];
    expect(n).toBe(0);
    expect(await rows(sql`SELECT 1 FROM bulk_operations`)).toEqual([]);
  });

  it('refuses a file it cannot read, whole, with the reason', async () => {
    for (const [csv, message] of [
      ['customer,line,colour\na@b.test,AST-1', BULK_MESSAGES.unknownColumn('colour')],
      ['service_line\nAST-1', BULK_MESSAGES.missingColumn('customer')],
      ['customer,service_line\n"a@b.test,AST-1', BULK_MESSAGES.unclosedQuote(2)],
      ['\n\n', BULK_MESSAGES.empty],
    ] as const) {
      const response = await post('/api/v1/bulk/preview', { kind: 'assign', csv });
      expect(response.statusCode, csv).toBe(400);
      expect(response.json()).toMatchObject({ success: false, message });
    }
  });
});

describe('a run of 500 assignments', () => {
  it('assigns each line, skips the rows with problems, and reports every row', async () => {
    const csv = [
      'customer,service_line',
      ...Array.from({ length: LINES }, (_, i) => `${i % 2 === 0 ? customers.north.email : customers.south.email},${lineOf(i + 1)}`),
      `${customers.north.email},${lineOf(LINES + 1)}`,
      `${customers.blocked.email},${lineOf(1)}`,
      `ghost@example.test,${lineOf(999)}`,
    ].join('\r\n');
    const response = await post('/api/v1/bulk', { kind: 'assign', csv });
    expect(response.statusCode).toBe(202);
    expect(response.json().message).toBe(BULK_MESSAGES.started(LINES + 1));
    const started = response.json().data.operation as BulkOperationWire;
    expect(started).toMatchObject({ kind: 'assign', total: LINES + 3, skipped: 2, createdBy: 'Bulk Admin' });

    const done = await finished(started.id);
    expect(done).toMatchObject({ status: 'done', total: LINES + 3, done: LINES + 3, succeeded: LINES, failed: 1, skipped: 2 });
    expect(done.finishedAt).not.toBeNull();

    const results = await allRows(started.id);
    expect(results).toHaveLength(LINES + 3);
    expect(results.slice(0, LINES).every((row) => row.status === 'ok' && row.message === BULK_SERVER_MESSAGES.assigned)).toBe(true);
    expect(results.slice(LINES).map((row) => [row.line, row.status, row.message])).toEqual([
      [LINES + 2, 'failed', ASSIGN_REASONS.assignedToOther('Other Holder')],
      // A line taken earlier in the same file fails when its row runs, as by hand.
      [LINES + 3, 'skipped', BULK_MESSAGES.repeats(2)],
      [LINES + 4, 'skipped', BULK_MESSAGES.customerNotFound],
    ]);
    expect((await allRows(started.id, 'failed')).map((row) => row.line)).toEqual([LINES + 2]);

    const held = await rows<{ customer: string; n: number }>(sql`
      SELECT assigned_customer_id::text AS customer, count(*)::int AS n FROM terminals WHERE service_line_number LIKE 'AST-9%' GROUP BY 1`);
    expect(Object.fromEntries(held.map((row) => [row.customer, row.n]))).toEqual({
      [customers.north.id]: LINES / 2,
      [customers.south.id]: LINES / 2,
      [customers.other.id]: 1,
    });

    // Each assignment is audited as by hand, under the request that started the run.
    const [startedEntry] = await rows<{ request_id: string; after: { rows: number } }>(sql`SELECT request_id, after FROM audit_log WHERE action = 'bulk.started' AND target_id = ${started.id}`);
    expect(startedEntry!.after.rows).toBe(LINES + 3);
    const [{ n }] = (await rows<{ n: number }>(sql`SELECT count(*)::int AS n FROM audit_log WHERE action = 'terminal.assigned' AND request_id = ${startedEntry!.request_id}`)) as [{ n: number }];
    expect(n).toBe(LINES);

    // The results as CSV: the same rows and outcomes.
    const exported = await get(`/api/v1/bulk/${started.id}/rows/export.csv`);
    expect(exported.headers['content-type']).toContain('text/csv');
    const [header, ...records] = parseCsv(exported.body);
    expect(header).toEqual(['line', 'customer', 'service_line', 'reason', 'days', 'plan', 'status', 'message']);
    expect(records.map((record) => [Number(record[0]), record[6]])).toEqual(results.map((row) => [row.line, row.status]));

    const listed = (await get('/api/v1/bulk')).json().data as BulkOperationWire[];
    expect(listed[0]!.id).toBe(started.id);
  }, 120_000);

  it('refuses a file where no row can run', async () => {
    const response = await post('/api/v1/bulk', { kind: 'assign', csv: `ghost@example.test,${lineOf(1)}` });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ success: false, message: BULK_MESSAGES.nothingToRun });
  });
});

describe('customer actions', () => {
  it('blocks, unblocks and extends through the single-row actions, in their words', async () => {
    const block = await post('/api/v1/bulk', { kind: 'block', csv: `customer,reason\n${customers.north.email},Card declined\n${customers.blocked.email},Again` });
    const blocked = await finished(block.json().data.operation.id);
    expect(blocked).toMatchObject({ succeeded: 2, failed: 0 });
    expect((await allRows(blocked.id)).map((row) => row.message)).toEqual([BULK_SERVER_MESSAGES.blocked, BULK_SERVER_MESSAGES.alreadyBlocked]);
    const [north] = await rows<{ blocked_enabled: boolean; blocked_reason: string }>(sql`SELECT blocked_enabled, blocked_reason FROM customers WHERE id = ${customers.north.id}`);
    expect(north).toEqual({ blocked_enabled: true, blocked_reason: 'Card declined' });

    const unblock = await post('/api/v1/bulk', { kind: 'unblock', csv: `${customers.north.email}\n${customers.south.email}` });
    const unblocked = await finished(unblock.json().data.operation.id);
    expect((await allRows(unblocked.id)).map((row) => row.message)).toEqual([BULK_SERVER_MESSAGES.unblocked, BULK_SERVER_MESSAGES.notBlocked]);

    const [before] = await rows<{ expires: string | null }>(sql`SELECT account_expires_at::text AS expires FROM customers WHERE id = ${customers.south.id}`);
    const extend = await post('/api/v1/bulk', { kind: 'extend', csv: `customer,days\n${customers.south.id},30\n${customers.north.email},0` });
    expect(extend.json().data.operation).toMatchObject({ skipped: 1 });
    const extended = await finished(extend.json().data.operation.id);
    expect(extended).toMatchObject({ succeeded: 1, skipped: 1 });
    const [after] = await rows<{ expires: string | null }>(sql`SELECT account_expires_at::text AS expires FROM customers WHERE id = ${customers.south.id}`);
    expect(after!.expires).not.toBe(before!.expires);
    expect((await allRows(extended.id)).map((row) => row.message)).toEqual(['Account extended by 30 days', BULK_MESSAGES.daysInvalid]);
  });

  it('fails each plan change with the reason when no provider is configured, and goes on', async () => {
    await ctx.database.db.execute(sql`INSERT INTO provider_products (product_reference_id, account_id, account_number, name, raw, synced_at) VALUES ('SUB-BULK-1', 1, 'ACC-1', 'Bulk Plan', '{}', now()) ON CONFLICT DO NOTHING`);
    const response = await post('/api/v1/bulk', { kind: 'change-plan', csv: `service_line,plan\n${lineOf(10)},SUB-BULK-1\n${lineOf(11)},SUB-BULK-1` });
    expect(response.statusCode).toBe(202);
    const done = await finished(response.json().data.operation.id);
    expect(done).toMatchObject({ failed: 2, succeeded: 0 });
    for (const row of await allRows(done.id)) expect(row.message).toBeTruthy();
  });
});

describe('a run cut short', () => {
  it('fails a row a dead process claimed, never runs it again, and finishes the rest', async () => {
    const csv = `customer,days\n${customers.north.email},10\n${customers.south.email},10`;
    // Created without its run: as if the process died right after claiming the first row.
    const repo = ctx.app.repos.bulkOperations;
    const at = ctx.clock.now();
    const operation = await repo.transaction((tx) =>
      repo.create(
        { kind: 'extend', createdBy: null, createdIp: null, requestId: 'req-dead', at },
        parseCsv(`${csv.replace(/\n/g, '\r\n')}\r\n`).slice(1).map((fields, i) => ({ line: i + 2, input: { customer: fields[0]!, days: fields[1]! }, status: 'pending' as const, message: null })),
        tx,
      ),
    );
    expect(await repo.claimNext(operation.id, at)).toMatchObject({ line: 2 });

    // Within the grace period the claimed row is left to its process.
    expect(await ctx.app.services.bulk.resumable()).toContain(operation.id);
    expect((await allRows(operation.id)).map((row) => row.status)).toEqual(['pending', 'pending']);

    ctx.clock.advanceMinutes(6);
    await ctx.app.services.bulk.resumable();
    await ctx.app.services.bulk.run(operation.id);
    const done = await finished(operation.id);
    expect(done).toMatchObject({ status: 'done', succeeded: 1, failed: 1 });
    expect((await allRows(operation.id)).map((row) => [row.line, row.status, row.message])).toEqual([
      [2, 'failed', BULK_SERVER_MESSAGES.interrupted],
      [3, 'ok', 'Account extended by 10 days'],
    ]);
  });
});

describe('refusals', () => {
  it('answers bad input with a 4xx in the envelope, strangers with 401 and customers with 403', async () => {
    const cases: [string, Promise<{ statusCode: number; json(): unknown }>, number][] = [
      ['unknown kind', post('/api/v1/bulk/preview', { kind: 'delete-all', csv: 'x' }), 400],
      ['no csv', post('/api/v1/bulk', { kind: 'assign' }), 400],
      ['extra field', post('/api/v1/bulk', { kind: 'assign', csv: 'x', dryRun: true }), 400],
      ['too long', post('/api/v1/bulk/preview', { kind: 'assign', csv: 'a'.repeat(BULK_MAX_CHARS + 1) }), 400],
      ['bad id', get('/api/v1/bulk/not-a-uuid'), 400],
      ['unknown id', get('/api/v1/bulk/00000000-0000-4000-8000-000000000000'), 404],
      ['unknown id rows', get('/api/v1/bulk/00000000-0000-4000-8000-000000000000/rows'), 404],
      ['bad status', get('/api/v1/bulk/00000000-0000-4000-8000-000000000000/rows?status=weird'), 400],
      ['bad page', get('/api/v1/bulk/00000000-0000-4000-8000-000000000000/rows?page=0'), 400],
      ['stranger', get('/api/v1/bulk', null), 401],
      ['customer', get('/api/v1/bulk', customerToken), 403],
      ['customer start', post('/api/v1/bulk', { kind: 'unblock', csv: customers.north.email }, customerToken), 403],
    ];
    for (const [what, pending, status] of cases) {
      const response = await pending;
      expect(response.statusCode, what).toBe(status);
      expect(response.json(), what).toMatchObject({ success: false });
    }
  });
});
