// POST /terminals/{id}/assign and /terminals/{id}/report-issue: who may receive a terminal, the
// conflicts, idempotence, the audit trail, concurrent assignments, and bad input.
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TerminalDetailWire } from '../../src/domain/terminals';
import { createRepositories } from '../../server/db/repositories';
import { auditLog, terminals } from '../../server/db/schema';
import { idOf, insertTerminals, seedTerminalWorld, terminalRow, type WorldCustomers } from '../fixtures/terminals';
import { createTestContext, type TestContext } from './helpers';

let ctx: TestContext;
let token: string;
let adminId: string;
let people: WorldCustomers;
let carla: string;

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
    elena: await make('Elena_Nakamura 100%', 'Boreal Timber'),
    gone: await make('Isabel Gone', 'Gone Ltd', { deletedAt: ctx.clock.now() }),
    diego: await make('Diego Fernandes', 'Pacific Fish', { blockedEnabled: true, blockedReason: 'Payment overdue' }),
    gabriela: await make('Gabriela Haddad', 'Coral Coast', { accountExpiresAt: new Date(ctx.clock.now().getTime() - 86_400_000) }),
  };
  // Pending (never set a password) but neither blocked nor expired: may receive terminals.
  carla = await make('Carla Schmidt', 'Sahel Agritech', { isActive: false });
  await seedTerminalWorld(ctx.database.db, people);
  await insertTerminals(
    ctx.database.db,
    Array.from({ length: 6 }, (_, i) => terminalRow({ userTerminalId: `UT-RACE-${i}`, kitSerialNumber: `KIT-RACE-${i}` })),
  );
});
afterAll(async () => {
  await ctx?.close();
});

function assign(id: string, payload: unknown, as: string | null = token) {
  return ctx.request({ method: 'POST', url: `/api/v1/terminals/${id}/assign`, payload: payload as Record<string, unknown>, token: as });
}

async function auditOf(action: string, terminalId: string) {
  return ctx.database.db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.action, action), eq(auditLog.targetType, 'terminal'), eq(auditLog.targetId, terminalId)));
}

async function ownerOf(terminalId: string) {
  const [row] = await ctx.database.db
    .select({ customer: terminals.assignedCustomerId, at: terminals.assignedAt, updatedAt: terminals.updatedAt })
    .from(terminals)
    .where(eq(terminals.userTerminalId, terminalId));
  return row!;
}

describe('assigning a terminal', () => {
  it('assigns an unassigned terminal, answers its details and records who did it', async () => {
    const res = await assign(idOf(4), { customerId: people.bruno, customerName: 'Bruno Okafor' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ success: true, message: `Terminal ${idOf(4)} assigned to Bruno Okafor` });
    const detail: TerminalDetailWire = res.json().data;
    expect(detail).toMatchObject({
      user_terminal_id: idOf(4),
      assigned_to: people.bruno,
      assigned_to_customer: 'Bruno Okafor',
      owner: { uuid: people.bruno, name: 'Bruno Okafor', company: 'Northwind Maritime' },
    });
    const stored = await ownerOf(idOf(4));
    expect(stored.customer).toBe(people.bruno);
    expect(stored.at?.toISOString()).toBe(ctx.clock.now().toISOString());

    const [entry, ...more] = await auditOf('terminal.assigned', idOf(4));
    expect(more).toEqual([]);
    expect(entry).toMatchObject({
      actorType: 'user',
      actorId: adminId,
      before: { assignedTo: null, assignedToCustomer: null, serviceLineNumber: 'AST-100004-00004-04' },
      after: { assignedTo: people.bruno, assignedToCustomer: 'Bruno Okafor', serviceLineNumber: 'AST-100004-00004-04' },
    });
  });

  it('finds the terminal by its new owner afterwards, and no longer lists it as available', async () => {
    const byName = await ctx.request({ method: 'GET', url: '/api/v1/terminals?search=okafor', token });
    expect(byName.json().data.results.map((r: { user_terminal_id: string }) => r.user_terminal_id)).toEqual([idOf(3), idOf(4)]);
    const byId = await ctx.request({ method: 'GET', url: `/api/v1/terminals?search=${people.bruno}`, token });
    expect(byId.json().data.totalCount).toBe(2);
    const available = await ctx.request({ method: 'GET', url: `/api/v1/terminals/available?search=${idOf(4)}`, token });
    expect(available.json().data.totalCount).toBe(0);
  });

  it('is idempotent for the same customer: success, no second audit entry, the first moment kept', async () => {
    const before = await ownerOf(idOf(4));
    ctx.clock.advanceMinutes(5);
    const res = await assign(idOf(4), { customerId: people.bruno });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ message: `Terminal ${idOf(4)} is already assigned to Bruno Okafor`, data: { assigned_to: people.bruno } });
    expect(await ownerOf(idOf(4))).toEqual(before);
    expect(await auditOf('terminal.assigned', idOf(4))).toHaveLength(1);
  });

  it('refuses a terminal assigned to another customer with 409, naming that customer', async () => {
    const res = await assign(idOf(1), { customerId: people.bruno });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({
      success: false,
      message: `Terminal ${idOf(1)} is already assigned to another customer (Ana Lima). Unassign it before assigning it again.`,
    });
    expect((await ownerOf(idOf(1))).customer).toBe(people.ana);
  });

  it("names a deleted customer who still holds the terminal", async () => {
    const res = await assign(idOf(8), { customerId: people.ana });
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toContain('(Isabel Gone)');
  });

  it('keeps the stored customer name over the one the client sent, and notes the difference', async () => {
    const res = await assign(idOf(9), { customerId: people.ana, customerName: 'Ana L. (old name)' });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ assigned_to_customer: 'Ana Lima' });
    const [entry] = await auditOf('terminal.assigned', idOf(9));
    expect(entry?.after).toMatchObject({ assignedToCustomer: 'Ana Lima', requestedName: 'Ana L. (old name)' });
  });

  it('assigns to a pending customer (not blocked, not expired)', async () => {
    const res = await assign(idOf(10), { customerId: carla });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.owner).toMatchObject({ uuid: carla, name: 'Carla Schmidt' });
  });

  it('refuses a blocked customer with 409, saying why', async () => {
    const res = await assign(idOf(5), { customerId: people.diego });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({
      success: false,
      message: 'Diego Fernandes is blocked (Payment overdue). Unblock the customer before assigning terminals.',
    });
    expect((await ownerOf(idOf(5))).customer).toBeNull();
  });

  it('refuses a customer whose account has expired with 409, saying when', async () => {
    const res = await assign(idOf(5), { customerId: people.gabriela });
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe("Gabriela Haddad's account expired on 2026-03-01. Extend the account before assigning terminals.");
  });

  it('answers 404 "Customer not found" for a deleted or unknown customer', async () => {
    for (const customerId of [people.gone, '5b0c1c1e-2f7a-4a59-9d1e-0b8f1f0d2a11']) {
      const res = await assign(idOf(5), { customerId });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ success: false, message: 'Customer not found' });
    }
  });

  it('answers 404 "Terminal not found" for an unknown terminal', async () => {
    const res = await assign('UT-NOPE-1', { customerId: people.ana });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ success: false, message: 'Terminal not found' });
  });

  it('refuses a removed terminal with 409', async () => {
    const res = await assign(idOf(99), { customerId: people.ana });
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe(`Terminal ${idOf(99)} is no longer listed by the provider and cannot be assigned`);
  });

  it.each([
    ['no customerId', {}, 'customerId must be a customer UUID'],
    ['a customerId that is not a uuid', { customerId: 'ana' }, 'customerId must be a customer UUID'],
    ['a numeric customerId', { customerId: 42 }, 'customerId must be a customer UUID'],
    ['an overlong customerName', { customerId: '5b0c1c1e-2f7a-4a59-9d1e-0b8f1f0d2a11', customerName: 'x'.repeat(201) }, 'customerName must be at most 200 characters'],
    ['a customerName that is not text', { customerId: '5b0c1c1e-2f7a-4a59-9d1e-0b8f1f0d2a11', customerName: 7 }, 'customerName must be at most 200 characters'],
  ])('answers 400 to %s', async (_what, payload, message) => {
    const res = await assign(idOf(5), payload);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ success: false, message: `Validation failed: ${message}` });
  });

  it('answers 400 to unknown body fields, a list body and malformed JSON, and 415 to a non-JSON body', async () => {
    expect((await assign(idOf(5), { customerId: people.ana, force: true })).statusCode).toBe(400);
    expect((await assign(idOf(5), [people.ana])).statusCode).toBe(400);
    const malformed = await ctx.request({
      method: 'POST',
      url: `/api/v1/terminals/${idOf(5)}/assign`,
      headers: { 'content-type': 'application/json' },
      payload: '{"customerId":',
      token,
    });
    expect(malformed.statusCode).toBe(400);
    const text = await ctx.request({
      method: 'POST',
      url: `/api/v1/terminals/${idOf(5)}/assign`,
      headers: { 'content-type': 'text/plain' },
      payload: people.ana,
      token,
    });
    expect(text.statusCode).toBe(415);
    expect((await ownerOf(idOf(5))).customer).toBeNull();
  });

  it('answers 400 to a malformed terminal id', async () => {
    const res = await assign('UT_5', { customerId: people.ana });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('Validation failed: Terminal id must be 2 to 64 letters, digits or dashes');
  });
});

describe('concurrent assignments', () => {
  it('lets exactly one of two assignments to different customers win; the other gets 409 naming the winner', async () => {
    for (let i = 0; i < 3; i++) {
      const id = `UT-RACE-${i}`;
      const [first, second] = await Promise.all([assign(id, { customerId: people.ana }), assign(id, { customerId: people.bruno })]);
      const statuses = [first.statusCode, second.statusCode].sort();
      expect(statuses, `${first.body} ${second.body}`).toEqual([200, 409]);
      const winner = first.statusCode === 200 ? first : second;
      const loser = first.statusCode === 200 ? second : first;
      const winnerId = winner.json().data.assigned_to as string;
      expect((await ownerOf(id)).customer).toBe(winnerId);
      expect(loser.json().message).toContain(winnerId === people.ana ? '(Ana Lima)' : '(Bruno Okafor)');
      expect(await auditOf('terminal.assigned', id)).toHaveLength(1);
    }
  });

  it('re-checks a terminal it had to wait for: the assignment committed first wins, the waiting one gets 409', async () => {
    // The earlier read sees the terminal free; only the conditional UPDATE can catch this one.
    // On PostgreSQL the second request really waits on the first one's row lock; PGlite runs
    // transactions one at a time, so there the second simply starts after the first.
    const id = 'UT-RACE-4';
    const repos = createRepositories(ctx.database.db);
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let updated!: () => void;
    const written = new Promise<void>((resolve) => (updated = resolve));
    const first = ctx.database.db.transaction(async (tx) => {
      expect(await repos.terminals.assignIfUnassigned(id, people.ana, ctx.clock.now(), tx)).toBe(true);
      updated();
      await gate;
    });
    await written;
    const second = assign(id, { customerId: people.bruno });
    if (ctx.database.kind === 'postgres') {
      for (let waited = 0; ; waited += 10) {
        const result = (await ctx.database.db.execute(
          sql`SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`,
        )) as unknown as { rows: { n: number }[] };
        if (Number(result.rows[0]?.n) > 0) break;
        if (waited > 5_000) throw new Error('the second assignment never waited on the row lock');
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    }
    release();
    await first;
    const res = await second;
    expect(res.statusCode, res.body).toBe(409);
    expect(res.json().message).toContain('(Ana Lima)');
    expect((await ownerOf(id)).customer).toBe(people.ana);
  });

  it('answers both of two concurrent assignments to the same customer with success, and records one', async () => {
    const id = 'UT-RACE-5';
    const results = await Promise.all([assign(id, { customerId: people.elena }), assign(id, { customerId: people.elena })]);
    expect(results.map((r) => r.statusCode)).toEqual([200, 200]);
    expect(await auditOf('terminal.assigned', id)).toHaveLength(1);
  });
});

describe('reporting an issue', () => {
  function report(id: string, payload: unknown, as: string | null = token) {
    return ctx.request({ method: 'POST', url: `/api/v1/terminals/${id}/report-issue`, payload: payload as Record<string, unknown>, token: as });
  }

  it('records the trimmed note in the audit log against the terminal', async () => {
    const res = await report(idOf(2), { note: '  Dish knocked over by wind; customer reports no signal.  ' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true, data: { reported: true }, message: 'Issue reported. It is recorded in the activity log.' });
    const [entry] = await auditOf('terminal.issue_reported', idOf(2));
    expect(entry).toMatchObject({
      actorType: 'user',
      actorId: adminId,
      after: { note: 'Dish knocked over by wind; customer reports no signal.', serviceLineNumber: 'AST-100002-00002-02', assignedTo: people.ana },
    });
  });

  it('accepts a note of 2000 characters and a removed terminal', async () => {
    expect((await report(idOf(99), { note: 'n'.repeat(2000) })).statusCode).toBe(200);
  });

  it('answers 404 "Terminal not found" for an unknown terminal', async () => {
    const res = await report('UT-NOPE-2', { note: 'Broken' });
    expect(res.statusCode).toBe(404);
    expect(res.json().message).toBe('Terminal not found');
  });

  it.each([
    ['no note', {}],
    ['an empty note', { note: '' }],
    ['a blank note', { note: '   \n ' }],
    ['a note over 2000 characters', { note: 'n'.repeat(2001) }],
    ['a note that is not text', { note: 5 }],
    ['an unknown field', { note: 'ok', severity: 'high' }],
  ])('answers 400 to %s', async (_what, payload) => {
    const res = await report(idOf(2), payload);
    expect(res.statusCode).toBe(400);
    expect(res.json().success).toBe(false);
    if ('note' in payload && payload.note !== 'ok') expect(res.json().message).toBe('Validation failed: note must be 1 to 2000 characters');
  });

  it('answers 400 to a malformed terminal id', async () => {
    expect((await report('-bad', { note: 'x' })).statusCode).toBe(400);
  });
});
