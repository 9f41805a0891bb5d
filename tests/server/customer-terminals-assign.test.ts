// POST /terminals/customers/assign-terminals and /unassign-terminal, GET /terminals/customers/{uuid}/terminals
// (and its /page):
// every per-line reason, the customer-level refusals, bad bodies (nothing written), access, the
// audit trail and its Recent Activity sentence, and 50 overlapping requests racing for the same lines.
import { and, eq, inArray, like, sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ASSIGN_MAX_LINES, ASSIGN_MESSAGES, ASSIGN_REASONS, type AssignTerminalsResult } from '../../src/domain/customer-terminals';
import { auditLog, terminals } from '../../server/db/schema';
import { idOf, insertServiceLines, insertTerminals, lineOf, seedTerminalWorld, terminalRow, type WorldCustomers } from '../fixtures/terminals';
import { createTestContext, TEST_DATABASE_URL, type TestContext } from './helpers';

let ctx: TestContext;
let token: string;
let adminId: string;
let people: WorldCustomers;
/** Pending (no password yet) but neither blocked nor expired: may receive terminals. */
let carla: string;
let carlaName: string;

const UNKNOWN_UUID = '5b0c1c1e-2f7a-4a59-9d1e-0b8f1f0d2a11';
/** Two live unassigned terminals on one line. */
const TWIN_LINE = 'AST-300000-TWIN-01';
/** One terminal Carla holds already and one free one. */
const HALF_LINE = 'AST-300000-HALF-01';
/** One terminal Ana holds and one free one. */
const SHARED_LINE = 'AST-300000-SHARED-01';
/** A listed line whose only terminal was removed. */
const EMPTIED_LINE = 'AST-300000-EMPTIED-01';
/** A line the provider dropped, no terminal ever on it. */
const DROPPED_LINE = 'AST-300000-DROPPED-01';
const LINE_ONLY = 'AST-200000-LINE-ONLY';

beforeAll(async () => {
  ctx = await createTestContext();
  const admin = await ctx.createAdmin();
  adminId = admin.id;
  token = (await ctx.login('admin', admin.email, admin.password)).token as string;
  const make = async (name: string, company: string, extra: Record<string, unknown> = {}) =>
    (await ctx.createCustomer({ name, company, password: null, isActive: true, ...extra })).id;
  people = {
    ana: await make('Ana Lima', 'Andes Copper'),
    bruno: await make('Bruno Okafor', 'Northwind Maritime'),
    elena: await make('Elena Nakamura', 'Boreal Timber'),
    gone: await make('Isabel Gone', 'Gone Ltd', { deletedAt: ctx.clock.now() }),
    diego: await make('Diego Fernandes', 'Pacific Fish', { blockedEnabled: true, blockedReason: 'Payment overdue' }),
    gabriela: await make('Gabriela Haddad', 'Coral Coast', { accountExpiresAt: new Date('2026-03-01T12:00:00.000Z') }),
  };
  carlaName = 'Carla Schmidt';
  carla = await make(carlaName, 'Sahel Agritech', { isActive: false });
  const db = ctx.database.db;
  await seedTerminalWorld(db, people);
  await insertServiceLines(db, [
    { serviceLineNumber: TWIN_LINE },
    { serviceLineNumber: HALF_LINE },
    { serviceLineNumber: SHARED_LINE },
    { serviceLineNumber: EMPTIED_LINE },
    { serviceLineNumber: DROPPED_LINE, removedAt: new Date('2026-02-01T00:00:00Z') },
  ]);
  await insertTerminals(db, [
    terminalRow({ userTerminalId: 'UT-TWIN-B', serviceLineNumber: TWIN_LINE }),
    terminalRow({ userTerminalId: 'UT-TWIN-A', serviceLineNumber: TWIN_LINE }),
    terminalRow({ userTerminalId: 'UT-HALF-A', serviceLineNumber: HALF_LINE, assignedCustomerId: carla }),
    terminalRow({ userTerminalId: 'UT-HALF-B', serviceLineNumber: HALF_LINE }),
    terminalRow({ userTerminalId: 'UT-SHARED-A', serviceLineNumber: SHARED_LINE, assignedCustomerId: people.ana }),
    terminalRow({ userTerminalId: 'UT-SHARED-B', serviceLineNumber: SHARED_LINE }),
    terminalRow({ userTerminalId: 'UT-EMPTIED-A', serviceLineNumber: EMPTIED_LINE, removedAt: new Date('2026-02-20T00:00:00Z') }),
    // Diego is blocked but may still give back what he holds.
    terminalRow({ userTerminalId: 'UT-DIEGO-A', serviceLineNumber: 'AST-300000-DIEGO-01', assignedCustomerId: people.diego }),
  ]);
});
afterAll(async () => {
  await ctx?.close();
});

function assign(payload: unknown, as: string | null = token) {
  return ctx.request({ method: 'POST', url: '/api/v1/terminals/customers/assign-terminals', payload: payload as Record<string, unknown>, token: as });
}

function unassign(payload: unknown, as: string | null = token) {
  return ctx.request({ method: 'POST', url: '/api/v1/terminals/customers/unassign-terminal', payload: payload as Record<string, unknown>, token: as });
}

async function assignedResult(payload: unknown): Promise<AssignTerminalsResult> {
  const res = await assign(payload);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data;
}

async function ownersOf(ids: string[]) {
  const rows = await ctx.database.db
    .select({ id: terminals.userTerminalId, customer: terminals.assignedCustomerId, at: terminals.assignedAt, updatedAt: terminals.updatedAt })
    .from(terminals)
    .where(inArray(terminals.userTerminalId, ids));
  return rows.sort(byCodePoint((r) => r.id));
}

/** Sorted by code point, whatever the database's collation makes of dashes. */
const byCodePoint =
  <T>(key: (item: T) => string) =>
  (a: T, b: T) =>
    key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0;

async function auditRows(action: string, terminalIds: string[]) {
  const rows = await ctx.database.db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.action, action), eq(auditLog.targetType, 'terminal'), inArray(auditLog.targetId, terminalIds)));
  return rows.sort(byCodePoint((r) => r.targetId ?? ''));
}

/** What a 400 must leave untouched: every assignment and the size of the audit log. */
async function writesSnapshot() {
  const assignments = await ctx.database.db
    .select({ id: terminals.userTerminalId, customer: terminals.assignedCustomerId, at: terminals.assignedAt })
    .from(terminals)
    .orderBy(terminals.userTerminalId);
  return { assignments, audit: await auditCount() };
}

async function auditCount(): Promise<number> {
  const result = (await ctx.database.db.execute(sql`SELECT count(*)::int AS n FROM audit_log`)) as unknown as { rows: { n: number }[] };
  return Number(result.rows[0]!.n);
}

describe('assigning service lines to a customer', () => {
  it('assigns every live unassigned terminal on each line, stamps them with the clock and audits each one', async () => {
    ctx.clock.advanceMinutes(1);
    const res = await assign({ customerUuid: carla, serviceLineNumbers: [lineOf(4), TWIN_LINE] });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      success: true,
      data: { assigned: [lineOf(4), TWIN_LINE], failed: [], total: 2 },
      message: '2 of 2 service lines assigned',
    });
    const at = ctx.clock.now();
    expect(await ownersOf([idOf(4), 'UT-TWIN-A', 'UT-TWIN-B'])).toEqual([
      { id: 'UT-TWIN-A', customer: carla, at, updatedAt: at },
      { id: 'UT-TWIN-B', customer: carla, at, updatedAt: at },
      { id: idOf(4), customer: carla, at, updatedAt: at },
    ]);
    const audit = await auditRows('terminal.assigned', [idOf(4), 'UT-TWIN-A', 'UT-TWIN-B']);
    expect(audit.map((a) => [a.targetId, a.actorType, a.actorId, a.before, a.after])).toEqual([
      ['UT-TWIN-A', 'user', adminId, { assignedTo: null, assignedToCustomer: null, serviceLineNumber: TWIN_LINE }, { assignedTo: carla, assignedToCustomer: carlaName, serviceLineNumber: TWIN_LINE }],
      ['UT-TWIN-B', 'user', adminId, { assignedTo: null, assignedToCustomer: null, serviceLineNumber: TWIN_LINE }, { assignedTo: carla, assignedToCustomer: carlaName, serviceLineNumber: TWIN_LINE }],
      [idOf(4), 'user', adminId, { assignedTo: null, assignedToCustomer: null, serviceLineNumber: lineOf(4) }, { assignedTo: carla, assignedToCustomer: carlaName, serviceLineNumber: lineOf(4) }],
    ]);
    expect(new Set(audit.map((a) => a.requestId)).size).toBe(1);
  });

  it('answers every line of a request mixing all reasons, in the order asked, each repeat once', async () => {
    const long = `AST-${'9'.repeat(80)}_`;
    const result = await assignedResult({
      customerUuid: carla,
      serviceLineNumbers: [
        ` ${lineOf(9)} `,
        'bad_line!',
        long,
        'AST-404404-00000-00',
        lineOf(99),
        DROPPED_LINE,
        EMPTIED_LINE,
        LINE_ONLY,
        lineOf(1),
        lineOf(8),
        lineOf(4),
        SHARED_LINE,
        HALF_LINE,
        lineOf(9),
        '',
        '   ',
        lineOf(1).toLowerCase(),
      ],
    });
    expect(result).toEqual({
      assigned: [lineOf(9), HALF_LINE],
      failed: [
        { serviceLineNumber: 'bad_line!', code: 'malformed', reason: ASSIGN_REASONS.malformed },
        { serviceLineNumber: long.slice(0, 64), code: 'malformed', reason: ASSIGN_REASONS.malformed },
        { serviceLineNumber: 'AST-404404-00000-00', code: 'not_found', reason: 'Not found in the terminal inventory' },
        { serviceLineNumber: lineOf(99), code: 'removed', reason: 'No longer listed by the provider' },
        { serviceLineNumber: DROPPED_LINE, code: 'removed', reason: 'No longer listed by the provider' },
        { serviceLineNumber: EMPTIED_LINE, code: 'removed', reason: 'No longer listed by the provider' },
        { serviceLineNumber: LINE_ONLY, code: 'no_terminal', reason: 'No terminal is on this service line' },
        { serviceLineNumber: lineOf(1), code: 'assigned_to_other', reason: 'Already assigned to another customer (Ana Lima)' },
        // The holder was deleted; the name it had still says who.
        { serviceLineNumber: lineOf(8), code: 'assigned_to_other', reason: 'Already assigned to another customer (Isabel Gone)' },
        { serviceLineNumber: lineOf(4), code: 'already_assigned', reason: 'Already assigned to this customer' },
        { serviceLineNumber: SHARED_LINE, code: 'assigned_to_other', reason: 'Already assigned to another customer (Ana Lima)' },
        // Provider ids are case-sensitive: the lower-case form is another line, and none such exists.
        { serviceLineNumber: lineOf(1).toLowerCase(), code: 'not_found', reason: 'Not found in the terminal inventory' },
      ],
      total: 14,
    });
    // A line shared with another customer is left alone; a line half held by Carla gets its free terminal.
    expect((await ownersOf(['UT-HALF-A', 'UT-HALF-B', 'UT-SHARED-A', 'UT-SHARED-B', idOf(1), idOf(9)])).map((r) => [r.id, r.customer])).toEqual([
      ['UT-HALF-A', carla],
      ['UT-HALF-B', carla],
      ['UT-SHARED-A', people.ana],
      ['UT-SHARED-B', null],
      [idOf(1), people.ana],
      [idOf(9), carla],
    ]);
    expect(await auditRows('terminal.assigned', ['UT-HALF-A', 'UT-SHARED-B'])).toEqual([]);
  });

  it('says how many of the distinct lines were assigned', async () => {
    const res = await assign({ customerUuid: people.bruno, serviceLineNumbers: ['AST-404404-00000-01', 'AST-404404-00000-01 '] });
    expect(res.json()).toMatchObject({ message: '0 of 1 service line assigned', data: { assigned: [], total: 1 } });
  });

  it('accepts exactly ASSIGN_MAX_LINES distinct lines', async () => {
    const lines = Array.from({ length: ASSIGN_MAX_LINES }, (_, i) => `AST-777777-${String(i).padStart(5, '0')}-00`);
    const result = await assignedResult({ customerUuid: people.bruno, serviceLineNumbers: lines });
    expect(result.total).toBe(ASSIGN_MAX_LINES);
    expect(result.failed.every((f) => f.code === 'not_found')).toBe(true);
  });
});

describe('customers who may not receive terminals', () => {
  it.each([
    ['blocked', () => people.diego, 'customer_blocked', 'The customer is blocked (Payment overdue)'],
    ['expired (by the server clock)', () => people.gabriela, 'customer_expired', "The customer's account expired on 2026-03-01"],
    ['deleted', () => people.gone, 'customer_deleted', 'The customer has been deleted'],
  ])('fails every line of a %s customer with the same reason and writes nothing', async (_what, customer, code, reason) => {
    const before = await writesSnapshot();
    const result = await assignedResult({ customerUuid: customer(), serviceLineNumbers: [lineOf(10), 'bad_', lineOf(10), 'AST-404404-00000-02'] });
    expect(result).toEqual({
      assigned: [],
      failed: [lineOf(10), 'bad_', 'AST-404404-00000-02'].map((serviceLineNumber) => ({ serviceLineNumber, code, reason })),
      total: 3,
    });
    expect(await writesSnapshot()).toEqual(before);
  });

  it('answers 404 "Customer not found" for a uuid no customer has', async () => {
    const res = await assign({ customerUuid: UNKNOWN_UUID, serviceLineNumbers: [lineOf(10)] });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ success: false, message: 'Customer not found' });
  });
});

describe('bodies the server refuses whole', () => {
  const tooManyDistinct = Array.from({ length: ASSIGN_MAX_LINES + 1 }, (_, i) => `AST-888888-${String(i).padStart(5, '0')}-00`);

  it.each([
    ['a customerUuid that is not a uuid', { customerUuid: 'carla', serviceLineNumbers: [lineOf(10)] }, 'Validation failed: customerUuid must be a valid UUID'],
    ['no customerUuid', { serviceLineNumbers: [lineOf(10)] }, 'Validation failed: customerUuid must be a valid UUID'],
    ['no serviceLineNumbers', { customerUuid: UNKNOWN_UUID }, 'Validation failed: serviceLineNumbers must be a list of at most 2000 service line numbers'],
    ['serviceLineNumbers as one string', { customerUuid: UNKNOWN_UUID, serviceLineNumbers: lineOf(10) }, 'Validation failed: serviceLineNumbers must be a list of at most 2000 service line numbers'],
    ['a number among the lines', { customerUuid: UNKNOWN_UUID, serviceLineNumbers: [lineOf(10), 7] }, 'Validation failed: Each service line number must be text of at most 256 characters'],
    ['an entry over 256 characters', { customerUuid: UNKNOWN_UUID, serviceLineNumbers: ['A'.repeat(257)] }, 'Validation failed: Each service line number must be text of at most 256 characters'],
    ['more than 2000 entries', { customerUuid: UNKNOWN_UUID, serviceLineNumbers: Array.from({ length: 2001 }, () => lineOf(10)) }, 'Validation failed: serviceLineNumbers must be a list of at most 2000 service line numbers'],
    ['an empty list', { customerUuid: UNKNOWN_UUID, serviceLineNumbers: [] }, ASSIGN_MESSAGES.empty],
    ['only blank entries', { customerUuid: UNKNOWN_UUID, serviceLineNumbers: ['', '  ', '\n'] }, ASSIGN_MESSAGES.noneValid],
    [`${ASSIGN_MAX_LINES + 1} distinct lines`, { customerUuid: UNKNOWN_UUID, serviceLineNumbers: [...tooManyDistinct, tooManyDistinct[0]] }, ASSIGN_MESSAGES.tooMany(ASSIGN_MAX_LINES + 1)],
    ['an unknown field', { customerUuid: UNKNOWN_UUID, serviceLineNumbers: [lineOf(10)], force: true }, 'Validation failed: Unrecognized key: "force"'],
  ])('answers 400 to %s, writing nothing', async (_what, payload, message) => {
    const before = await writesSnapshot();
    const res = await assign(payload);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toMatchObject({ success: false, message });
    expect(await writesSnapshot()).toEqual(before);
  });

  it('checks the list before the customer: an empty list for an unknown customer is a 400', async () => {
    const res = await assign({ customerUuid: UNKNOWN_UUID, serviceLineNumbers: [] });
    expect(res.json()).toMatchObject({ message: 'Please enter at least one service line number', errors: [{ path: 'serviceLineNumbers' }] });
  });

  it('answers 413 to a body over the 1 MB limit and 400 to malformed JSON, never a 500', async () => {
    const huge = await assign({ customerUuid: carla, serviceLineNumbers: Array.from({ length: 5000 }, () => 'A'.repeat(250)) });
    expect(huge.statusCode).toBe(413);
    const big = await assign({ customerUuid: carla, serviceLineNumbers: Array.from({ length: 2000 }, () => 'A'.repeat(256)).concat('B'.repeat(256)) });
    expect(big.statusCode).toBe(400);
    const malformed = await ctx.request({
      method: 'POST',
      url: '/api/v1/terminals/customers/assign-terminals',
      headers: { 'content-type': 'application/json' },
      payload: '{"customerUuid":',
      token,
    });
    expect(malformed.statusCode).toBe(400);
  });
});

describe('who may call', () => {
  it('answers 401 without a token and 403 to a customer token, on every route', async () => {
    const customer = await ctx.createCustomer();
    const customerToken = (await ctx.login('customer', customer.email, customer.password)).token as string;
    const calls = [
      (as: string | null) => assign({ customerUuid: carla, serviceLineNumbers: [lineOf(10)] }, as),
      (as: string | null) => unassign({ customerUuid: carla, serviceLineNumber: lineOf(4) }, as),
      (as: string | null) => ctx.request({ method: 'GET', url: `/api/v1/terminals/customers/${carla}/terminals`, token: as }),
      (as: string | null) => ctx.request({ method: 'GET', url: `/api/v1/terminals/customers/${carla}/terminals/page`, token: as }),
    ];
    for (const call of calls) {
      expect((await call(null)).statusCode).toBe(401);
      expect((await call(customerToken)).statusCode).toBe(403);
    }
    expect((await ownersOf([idOf(10)]))[0]!.customer).toBeNull();
  });
});

describe("the customer's assigned terminals", () => {
  it('lists the live terminals, by service line then id, with kit serial, moment and provider account', async () => {
    // Every terminal here is under the portal's one account, as its first start named it.
    const account = { accountId: 1, accountName: 'Provider account' };
    const res = await ctx.request({ method: 'GET', url: `/api/v1/terminals/customers/${people.ana}/terminals`, token });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      success: true,
      message: 'Assigned terminals retrieved successfully',
      data: [
        { deviceId: idOf(1), serviceLine: lineOf(1), status: 'Active', assignedTo: people.ana, kitSerialNumber: 'KIT4A1B2C01', assignedAt: '2026-03-02T08:00:00.000Z', ...account },
        { deviceId: idOf(2), serviceLine: lineOf(2), status: 'Active', assignedTo: people.ana, kitSerialNumber: 'KIT4A1B2C02', assignedAt: '2026-03-02T08:00:00.000Z', ...account },
        { deviceId: 'UT-SHARED-A', serviceLine: SHARED_LINE, status: 'Active', assignedTo: people.ana, kitSerialNumber: 'KIT-SHARED-A', assignedAt: '2026-03-02T08:00:00.000Z', ...account },
      ],
    });
  });

  it('shows an inactive terminal as Inactive', async () => {
    await assignedResult({ customerUuid: people.elena, serviceLineNumbers: [lineOf(5)] });
    const res = await ctx.request({ method: 'GET', url: `/api/v1/terminals/customers/${people.elena}/terminals`, token });
    expect(res.json().data.map((t: { deviceId: string; status: string }) => [t.deviceId, t.status])).toEqual([
      [idOf(5), 'Inactive'],
      [idOf(7), 'Active'],
    ]);
  });

  it('answers 404 for an unknown or deleted customer and 400 for a malformed uuid', async () => {
    for (const uuid of [UNKNOWN_UUID, people.gone]) {
      const res = await ctx.request({ method: 'GET', url: `/api/v1/terminals/customers/${uuid}/terminals`, token });
      expect(res.statusCode).toBe(404);
      expect(res.json().message).toBe('Customer not found');
    }
    const bad = await ctx.request({ method: 'GET', url: '/api/v1/terminals/customers/not-a-uuid/terminals', token });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe('Validation failed: customerUuid must be a valid UUID');
  });
});

describe("a page of the customer's assigned terminals (the Assign Terminals dialog)", () => {
  const pageOf = (uuid: string, query = '') => ctx.request({ method: 'GET', url: `/api/v1/terminals/customers/${uuid}/terminals/page${query}`, token });

  it('is a slice of the whole list, in its order, with how many there are', async () => {
    const whole = (await ctx.request({ method: 'GET', url: `/api/v1/terminals/customers/${people.ana}/terminals`, token })).json().data as unknown[];
    expect(whole.length).toBeGreaterThanOrEqual(3);
    const first = await pageOf(people.ana);
    expect(first.statusCode).toBe(200);
    expect(first.json().data).toEqual({ records: whole, pagination: { total: whole.length, page: 1, limit: 50, pages: 1 } });
    for (let page = 1; page <= whole.length + 1; page++) {
      const res = await pageOf(people.ana, `?page=${page}&limit=1`);
      expect(res.json().data, `page ${page}`).toEqual({
        records: whole.slice(page - 1, page),
        pagination: { total: whole.length, page, limit: 1, pages: whole.length },
      });
    }
  });

  it('answers 400 for a bad page or limit, and 404 for an unknown or deleted customer', async () => {
    for (const query of ['?page=0', '?limit=0', '?limit=101', '?page=x', '?limit=1.5']) {
      const res = await pageOf(people.ana, query);
      expect(res.statusCode, query).toBe(400);
      expect(res.json().message, query).toMatch(/^Validation failed: (page|limit) must be a whole number/);
    }
    for (const uuid of [UNKNOWN_UUID, people.gone]) expect((await pageOf(uuid)).statusCode).toBe(404);
  });
});

describe('unassigning a service line', () => {
  it("frees the customer's live terminals on the line, audits each, and Recent Activity says so", async () => {
    ctx.clock.advanceMinutes(1);
    const res = await unassign({ customerUuid: carla, serviceLineNumber: ` ${TWIN_LINE} ` });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      success: true,
      data: { serviceLineNumber: TWIN_LINE, unassigned: ['UT-TWIN-A', 'UT-TWIN-B'] },
      message: `Service line ${TWIN_LINE} unassigned`,
    });
    const at = ctx.clock.now();
    expect(await ownersOf(['UT-TWIN-A', 'UT-TWIN-B'])).toEqual([
      { id: 'UT-TWIN-A', customer: null, at: null, updatedAt: at },
      { id: 'UT-TWIN-B', customer: null, at: null, updatedAt: at },
    ]);
    const audit = await auditRows('terminal.unassigned', ['UT-TWIN-A', 'UT-TWIN-B']);
    expect(audit.map((a) => [a.targetId, a.actorId, a.before, a.after])).toEqual(
      ['UT-TWIN-A', 'UT-TWIN-B'].map((id) => [
        id,
        adminId,
        { assignedTo: carla, assignedToCustomer: carlaName, serviceLineNumber: TWIN_LINE },
        { assignedTo: null, assignedToCustomer: null, serviceLineNumber: TWIN_LINE },
      ]),
    );
    const dashboard = await ctx.request({ method: 'GET', url: '/api/v1/dashboard/summary', token });
    const descriptions = dashboard.json().data.recentActivity.map((a: { description: string }) => a.description);
    expect(descriptions.filter((d: string) => d.endsWith(`unassigned ${TWIN_LINE} from ${carlaName}`))).toHaveLength(2);
  });

  it('lets the line be assigned again afterwards', async () => {
    const result = await assignedResult({ customerUuid: people.bruno, serviceLineNumbers: [TWIN_LINE] });
    expect(result.assigned).toEqual([TWIN_LINE]);
  });

  it('answers 409 when no live terminal on the line is the customer\'s, and writes nothing', async () => {
    for (const line of [TWIN_LINE, lineOf(1), 'AST-404404-00000-03', lineOf(99)]) {
      const before = await writesSnapshot();
      const res = await unassign({ customerUuid: carla, serviceLineNumber: line });
      expect(res.statusCode).toBe(409);
      expect(res.json()).toMatchObject({ success: false, message: `Service line ${line} is not assigned to this customer` });
      expect(await writesSnapshot()).toEqual(before);
    }
  });

  it('lets a blocked customer give a line back', async () => {
    const res = await unassign({ customerUuid: people.diego, serviceLineNumber: 'AST-300000-DIEGO-01' });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.unassigned).toEqual(['UT-DIEGO-A']);
  });

  it('answers 404 for an unknown or deleted customer', async () => {
    for (const customerUuid of [UNKNOWN_UUID, people.gone]) {
      const res = await unassign({ customerUuid, serviceLineNumber: lineOf(8) });
      expect(res.statusCode).toBe(404);
      expect(res.json().message).toBe('Customer not found');
    }
    expect((await ownersOf([idOf(8)]))[0]!.customer).toBe(people.gone);
  });

  it.each([
    ['a malformed uuid', { customerUuid: 'x', serviceLineNumber: lineOf(1) }, 'Validation failed: customerUuid must be a valid UUID'],
    ['a malformed line', { customerUuid: UNKNOWN_UUID, serviceLineNumber: 'AST_1' }, 'Validation failed: Service line number must be 2 to 64 letters, digits or dashes'],
    ['no line', { customerUuid: UNKNOWN_UUID }, 'Validation failed: Service line number must be 2 to 64 letters, digits or dashes'],
  ])('answers 400 to %s', async (_what, payload, message) => {
    const res = await unassign(payload);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(message);
  });
});

describe('overlapping assignments racing each other', () => {
  const RACE_LINES = Array.from({ length: 20 }, (_, i) => `AST-900000-RACE-${String(i).padStart(2, '0')}`);
  const WINDOW = 6;
  const REQUESTS = 50;
  let racers: string[];

  beforeAll(async () => {
    racers = [];
    for (let i = 0; i < 5; i++) racers.push((await ctx.createCustomer({ name: `Racer ${i}`, password: null })).id);
    await insertServiceLines(ctx.database.db, RACE_LINES.map((serviceLineNumber) => ({ serviceLineNumber })));
    // Every fourth line carries two terminals: both go to the same winner.
    await insertTerminals(
      ctx.database.db,
      RACE_LINES.flatMap((line, i) => [
        terminalRow({ userTerminalId: `UT-RACE-${i}-A`, serviceLineNumber: line }),
        ...(i % 4 === 0 ? [terminalRow({ userTerminalId: `UT-RACE-${i}-B`, serviceLineNumber: line })] : []),
      ]),
    );
  });

  const requestFor = (i: number) => ({
    customerUuid: racers[i % racers.length]!,
    serviceLineNumbers: Array.from({ length: WINDOW }, (_, k) => RACE_LINES[(i * 3 + k) % RACE_LINES.length]!),
  });

  /** A connection of its own (not from the app's pool), on the test's PostgreSQL database. */
  async function ownConnection(): Promise<pg.Client> {
    const result = (await ctx.database.db.execute(sql`SELECT current_database() AS name`)) as unknown as { rows: { name: string }[] };
    const url = new URL(TEST_DATABASE_URL!);
    url.pathname = `/${result.rows[0]!.name}`;
    const client = new pg.Client({ connectionString: url.toString() });
    await client.connect();
    return client;
  }

  it('50 concurrent requests for 5 customers end with each line assigned exactly once, all answered 200', async () => {
    let holder: pg.Client | null = null;
    let watcher: pg.Client | null = null;
    let mostWaiting = 0;
    if (ctx.database.kind === 'postgres') {
      // Hold the racers' rows so every request that reaches its transaction waits on them: how
      // many wait at once shows how many the pool really runs side by side.
      holder = await ownConnection();
      watcher = await ownConnection();
      await holder.query('BEGIN');
      await holder.query('SELECT id FROM customers WHERE id = ANY($1::uuid[]) FOR UPDATE', [racers]);
    }
    const pending = Promise.all(Array.from({ length: REQUESTS }, (_, i) => assign(requestFor(i))));
    if (holder && watcher) {
      for (const deadline = Date.now() + 10_000; Date.now() < deadline && mostWaiting < 10; ) {
        const waiting = await watcher.query(
          "SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'",
        );
        mostWaiting = Math.max(mostWaiting, Number(waiting.rows[0].n));
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      await holder.query('COMMIT');
    }
    const responses = await pending;
    await holder?.end();
    await watcher?.end();
    // server/db/client.ts opens a pool of 10: all of them were in a transaction at once.
    if (ctx.database.kind === 'postgres') expect(mostWaiting).toBe(10);

    expect(responses.map((r) => r.statusCode), responses.find((r) => r.statusCode !== 200)?.body).toEqual(Array(REQUESTS).fill(200));
    const results = responses.map((r) => r.json().data as AssignTerminalsResult);

    // Each line is in exactly one answer's `assigned`, and together they cover every line asked.
    const winners = new Map<string, string>();
    results.forEach((result, i) => {
      for (const line of result.assigned) {
        expect(winners.has(line), `${line} assigned twice`).toBe(false);
        winners.set(line, requestFor(i).customerUuid);
      }
      expect(result.assigned.length + result.failed.length).toBe(WINDOW);
    });
    expect([...winners.keys()].sort()).toEqual(RACE_LINES);

    // The table agrees: every terminal of a line belongs to that line's winner.
    const rows = await ctx.database.db
      .select({ line: terminals.serviceLineNumber, customer: terminals.assignedCustomerId })
      .from(terminals)
      .where(like(terminals.userTerminalId, 'UT-RACE-%'));
    expect(rows).toHaveLength(25);
    for (const row of rows) expect(row.customer, row.line!).toBe(winners.get(row.line!));

    // Every loser learnt why: another customer won it, or this customer's earlier request did.
    results.forEach((result, i) => {
      for (const failure of result.failed) {
        const mine = winners.get(failure.serviceLineNumber) === requestFor(i).customerUuid;
        expect(failure.code).toBe(mine ? 'already_assigned' : 'assigned_to_other');
      }
    });
    const audited = (await ctx.database.db.execute(
      sql`SELECT count(*)::int AS n FROM audit_log WHERE action = 'terminal.assigned' AND target_id LIKE 'UT-RACE-%'`,
    )) as unknown as { rows: { n: number }[] };
    expect(Number(audited.rows[0]!.n)).toBe(25);
  });
});

describe('a transaction the database gives up on', () => {
  /** As Drizzle throws it: the driver's error, with its SQLSTATE, as the cause. */
  const failure = (code: string) => new Error('Failed query', { cause: Object.assign(new Error('database conflict'), { code }) });

  it('is run again from the start after a deadlock or a serialization failure, each failed attempt rolled back', async () => {
    await insertTerminals(ctx.database.db, [terminalRow({ userTerminalId: 'UT-RETRY-1', serviceLineNumber: 'AST-300000-RETRY-01' })]);
    const seen: (string | null)[] = [];
    const answer = await ctx.app.repos.customerTerminals.transaction(async (tx) => {
      const [row] = await tx.select({ customer: terminals.assignedCustomerId }).from(terminals).where(eq(terminals.userTerminalId, 'UT-RETRY-1'));
      seen.push(row!.customer);
      await tx.update(terminals).set({ assignedCustomerId: people.bruno, assignedAt: ctx.clock.now() }).where(eq(terminals.userTerminalId, 'UT-RETRY-1'));
      if (seen.length === 1) throw failure('40P01');
      if (seen.length === 2) throw failure('40001');
      return 'committed';
    });
    expect(answer).toBe('committed');
    expect(seen).toEqual([null, null, null]);
    expect((await ownersOf(['UT-RETRY-1']))[0]!.customer).toBe(people.bruno);
  });

  it('gives up after five attempts, and never repeats other failures', async () => {
    let attempts = 0;
    await expect(
      ctx.app.repos.customerTerminals.transaction(async () => {
        attempts++;
        throw failure('40P01');
      }),
    ).rejects.toThrow('Failed query');
    expect(attempts).toBe(5);
    attempts = 0;
    await expect(
      ctx.app.repos.customerTerminals.transaction(async () => {
        attempts++;
        throw failure('23505');
      }),
    ).rejects.toThrow('Failed query');
    expect(attempts).toBe(1);
  });
});
