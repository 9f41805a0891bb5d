import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DashboardSummary } from '../../src/domain/dashboard';
import { describeActivity } from '../../server/services/dashboard-service';
import { insertSyncRun, insertTerminals, terminalRow } from '../fixtures/terminals';
import { createTestContext, type TestContext } from './helpers';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(async () => {
  await ctx?.close();
});

async function summary(token: string | null): Promise<DashboardSummary> {
  const res = await ctx.request({ method: 'GET', url: '/api/v1/dashboard/summary', token });
  expect(res.statusCode).toBe(200);
  const body = res.json();
  expect(body).toMatchObject({ success: true, message: 'Dashboard summary retrieved successfully' });
  return body.data;
}

describe('dashboard summary', () => {
  it('counts live customers and portal users, leaving out deleted ones', async () => {
    const admin = await ctx.createAdmin({ name: 'Ana Lima' });
    await ctx.createAdmin({ role: 'user' });
    await ctx.createAdmin({ role: 'user', deletedAt: ctx.clock.now() });
    await ctx.createCustomer();
    await ctx.createCustomer({ isActive: false });
    await ctx.createCustomer({ deletedAt: ctx.clock.now() });
    const { token } = await ctx.login('admin', admin.email, admin.password);

    const data = await summary(token);
    expect(data.totalCustomers).toBe(2);
    expect(data.systemUsers).toBe(2);
    expect(data.activeTerminals).toBeNull();
    expect(data.providerHealth).toEqual({ status: 'Not connected', checkedAt: null, detail: 'No provider configured' });
  });

  it('lists the latest activity first, described in words with the actor name', async () => {
    const admin = await ctx.createAdmin({ name: 'Bruno Okafor' });
    ctx.clock.advanceMinutes(1);
    await ctx.login('admin', 'Stranger@Example.com', 'nope');
    ctx.clock.advanceMinutes(1);
    const { token } = await ctx.login('admin', admin.email, admin.password);

    const data = await summary(token);
    expect(data.recentActivity[0]).toMatchObject({ action: 'auth.login', description: 'Bruno Okafor signed in', actorName: 'Bruno Okafor' });
    expect(data.recentActivity[1]).toMatchObject({
      action: 'auth.login_failed',
      description: 'Failed sign-in for stranger@example.com',
      actorName: null,
    });
    expect(data.recentActivity[0]?.createdAt).toBe(ctx.clock.now().toISOString());
  });

  it('shows at most 10 activity entries', async () => {
    const admin = await ctx.createAdmin();
    for (let i = 0; i < 12; i++) await ctx.login('admin', `ghost${i}@test.local`, 'nope');
    const { token } = await ctx.login('admin', admin.email, admin.password);
    expect((await summary(token)).recentActivity).toHaveLength(10);
  });

  it('counts active terminals once the inventory has been synced: live terminals on an active line', async () => {
    const admin = await ctx.createAdmin();
    const { token } = await ctx.login('admin', admin.email, admin.password);
    await insertTerminals(ctx.database.db, [
      terminalRow({ userTerminalId: 'ut-dash-1', active: true }),
      terminalRow({ userTerminalId: 'ut-dash-2', active: true }),
      terminalRow({ userTerminalId: 'ut-dash-3', active: false }),
      terminalRow({ userTerminalId: 'ut-dash-4', active: true, removedAt: ctx.clock.now() }),
    ]);
    // Rows without a finished sync behind them are not an inventory yet.
    expect((await summary(token)).activeTerminals).toBeNull();
    await insertSyncRun(ctx.database.db, { kind: 'inventory', status: 'succeeded', queuedAt: ctx.clock.now() });
    expect((await summary(token)).activeTerminals).toBe(2);
  });
});

describe('activity descriptions of terminal actions', () => {
  const entry = (action: string, after: Record<string, unknown> = {}) => ({ action, actorName: 'Ana Lima', actorType: 'user' as const, after });
  it('names the line and the customer of an assignment, and the line of an issue report', () => {
    expect(describeActivity(entry('terminal.assigned', { serviceLineNumber: 'AST-1', assignedToCustomer: 'Northwind' }))).toBe(
      'Ana Lima assigned AST-1 to Northwind',
    );
    expect(describeActivity(entry('terminal.issue_reported', { serviceLineNumber: 'AST-2' }))).toBe('Ana Lima reported an issue with AST-2');
    expect(describeActivity(entry('terminal.refreshed'))).toBe('Ana Lima refreshed a terminal from the provider');
    expect(describeActivity(entry('terminal.sync_started'))).toBe('Ana Lima started a terminal sync');
  });

  it("sums up the demo's hand-out of terminals in one line", () => {
    expect(describeActivity({ ...entry('system.demo_terminals_assigned', { customers: 17, lines: 96 }), actorName: null, actorType: 'system' as const })).toBe(
      'Demo terminals assigned: 96 service lines to 17 customers',
    );
    expect(describeActivity({ ...entry('system.demo_terminals_assigned', { customers: 1, lines: 1 }), actorName: null, actorType: 'system' as const })).toBe(
      'Demo terminals assigned: 1 service line to 1 customer',
    );
  });
});
